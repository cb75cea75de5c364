package dev.steward.service.rpc;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Hello;

/**
 * Limits (SPEC §4): per connection, and per secret's holder across its connections; each over-limit
 * gets a clear error and others keep being served.
 */
public record Limits(
    long maxFrameBytes,
    int maxConcurrentCalls,
    int maxMessagesPerSecond,
    int maxConnectionsPerRole,
    int maxMessagesPerSecondPerRole) {

  public static Limits defaults() {
    return new Limits(1 << 20, 32, 5000, 16, 12_000);
  }

  /** Per-connection limits, with the holder's limits of {@link #defaults}. */
  public Limits(long maxFrameBytes, int maxConcurrentCalls, int maxMessagesPerSecond) {
    this(
        maxFrameBytes,
        maxConcurrentCalls,
        maxMessagesPerSecond,
        defaults().maxConnectionsPerRole(),
        defaults().maxMessagesPerSecondPerRole());
  }

  public Hello.Limits wire() {
    return new Hello.Limits(
        maxFrameBytes, maxConcurrentCalls, Json.MAX_NESTING_DEPTH, maxMessagesPerSecond);
  }
}
