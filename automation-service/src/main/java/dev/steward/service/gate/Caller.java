package dev.steward.service.gate;

import dev.steward.protocol.method.Role;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a call: the connection's role, the connection itself (a call can be cancelled only by
 * the connection that sent it), the conversation whose taint it shares — the one the client named,
 * or the connection's own when it named none (an MCP client) — and the client's name as it gave it.
 */
public record Caller(Role role, String connection, String conversation, String client) {

  public Caller(Role role, String connection, String conversation) {
    this(role, connection, conversation, role.wire());
  }

  /**
   * What the audit log adds to a row's reason to say who asked: nothing for the window's own roles,
   * the client's name and role for any other ("asked by Claude Desktop 1.2 (mcp)").
   */
  public String askedBy() {
    return role == Role.UI || role == Role.AGENT
        ? ""
        : " — asked by " + client + " (" + role.wire() + ")";
  }

  /** The same caller, named as its {@code session.hello} named it. */
  public Caller named(String name) {
    return new Caller(role, connection, conversation, name);
  }

  private static final java.util.regex.Pattern ID =
      java.util.regex.Pattern.compile("[A-Za-z0-9._:@/+=-]{1,128}");

  /**
   * The window's roles (ui, agent) name their conversations; any other client is kept per
   * connection whatever it sends, so that a client driven by a model cannot start afresh by naming
   * a new conversation for each call. An id that is not a plain id is not honoured either.
   */
  public static Caller of(Role role, String connection, @Nullable String conversationId) {
    boolean names = (role == Role.AGENT || role == Role.UI)
        && conversationId != null
        && ID.matcher(conversationId).matches();
    return names
        ? new Caller(role, connection, "conversation:" + conversationId)
        : connection(role, connection);
  }

  public static Caller connection(Role role, String connection) {
    return new Caller(role, connection, "connection:" + role.wire() + ":" + connection);
  }
}
