package dev.steward.service.rpc;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Hello;

/** Per-connection limits (SPEC §4); each over-limit gets a clear error and others keep being served. */
public record Limits(long maxFrameBytes, int maxConcurrentCalls, int maxMessagesPerSecond) {

  public static Limits defaults() {
    return new Limits(1 << 20, 32, 5000);
  }

  public Hello.Limits wire() {
    return new Hello.Limits(maxFrameBytes, maxConcurrentCalls, Json.MAX_NESTING_DEPTH, maxMessagesPerSecond);
  }
}
