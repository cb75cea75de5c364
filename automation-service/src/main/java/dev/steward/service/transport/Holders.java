package dev.steward.service.transport;

import dev.steward.protocol.method.Role;
import dev.steward.service.rpc.Limits;
import java.util.EnumMap;
import java.util.Map;

/**
 * What one secret's holder may use across all its connections: how many connections, and how
 * many messages a second in all — so whoever holds a secret cannot flood the audit log by opening
 * more connections.
 */
final class Holders {

  private final Limits limits;
  private final Map<Role, RateLimiter> rates = new EnumMap<>(Role.class);
  private final Map<Role, Integer> open = new EnumMap<>(Role.class);

  Holders(Limits limits) {
    this.limits = limits;
    for (Role r : Role.values()) {
      rates.put(r, new RateLimiter(limits.maxMessagesPerSecondPerRole()));
      open.put(r, 0);
    }
  }

  /** Counts a new connection of {@code role}, unless the role has all it may have. */
  synchronized boolean admit(Role role) {
    int n = open.getOrDefault(role, 0);
    if (n >= limits.maxConnectionsPerRole()) return false;
    open.put(role, n + 1);
    return true;
  }

  synchronized void left(Role role) {
    open.put(role, Math.max(0, open.getOrDefault(role, 0) - 1));
  }

  /** The rate the role's connections share. */
  RateLimiter rate(Role role) {
    return java.util.Objects.requireNonNull(rates.get(role), "every role has its rate");
  }
}
