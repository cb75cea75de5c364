package dev.steward.service.gate;

import dev.steward.protocol.method.Role;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a call: the connection's role, the connection itself (a call can be cancelled only by
 * the connection that sent it), and the conversation whose taint it shares — the one the client
 * named, or the connection's own when it named none (an MCP client).
 */
public record Caller(Role role, String connection, String conversation) {

  public static Caller of(Role role, String connection, @Nullable String conversationId) {
    return conversationId == null || conversationId.isEmpty()
        ? connection(role, connection)
        : new Caller(role, connection, "conversation:" + conversationId);
  }

  public static Caller connection(Role role, String connection) {
    return new Caller(role, connection, "connection:" + role.wire() + ":" + connection);
  }
}
