package dev.steward.protocol.method;

/** {@code session.hello}. */
public final class Hello {

  private Hello() {}

  public record Params(String client, String version) {}

  public record Limits(
      long maxFrameBytes, int maxConcurrentCalls, int maxJsonDepth, int maxMessagesPerSecond) {}

  public record Result(String serviceVersion, Role role, Limits limits) {}
}
