package dev.steward.service.gate;

import dev.steward.protocol.method.Role;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a call: the connection's role, the connection itself (a call can be cancelled only by
 * the connection that sent it), the conversation whose taint it shares — the one the client named,
 * or the connection's own when it named none (an MCP client) — the client's name as it gave it,
 * and whether the model wrote the call among its words ({@code inProse}: it may be quoting one it
 * read, and the call is judged as after untrusted content).
 */
public record Caller(
    Role role, String connection, String conversation, String client, boolean inProse) {

  public Caller(Role role, String connection, String conversation) {
    this(role, connection, conversation, role.wire(), false);
  }

  /** The same caller, for a call the model wrote among its words (or not). */
  public Caller inProse(boolean value) {
    return new Caller(role, connection, conversation, client, value);
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
    return new Caller(role, connection, conversation, name, inProse);
  }

  private static final java.util.regex.Pattern ID =
      java.util.regex.Pattern.compile("[A-Za-z0-9._:@/+=-]{1,128}");

  /**
   * The window's roles (ui, agent) name their conversations. The MCP bridge names its session
   * ({@code mcp-…}) so that its taint outlives a reconnection; the MCP client behind it never
   * reaches this id, and a holder of the bridge's secret gains nothing by naming a new one that a
   * new connection would not give it. A connection of the mcp role that names none (a client of
   * its own on the WebSocket) is kept under a session named for the connection, which the window
   * can name when it shows that client's dialog. Any other client is kept per connection whatever
   * it sends. An id that is not a plain id is not honoured.
   */
  public static Caller of(Role role, String connection, @Nullable String conversationId) {
    String named =
        conversationId != null && ID.matcher(conversationId).matches() ? conversationId : null;
    if (named != null && (role == Role.AGENT || role == Role.UI))
      return new Caller(role, connection, "conversation:" + named);
    if (role != Role.MCP) return connection(role, connection);
    if (named != null && named.startsWith(MCP_SESSION) && !named.startsWith(MCP_CONNECTION))
      return new Caller(role, connection, "conversation:" + named);
    return new Caller(role, connection, "conversation:" + MCP_CONNECTION + connection);
  }

  /** How the MCP bridge's session ids start: apart from the window's conversations. */
  public static final String MCP_SESSION = "mcp-";

  /** How the session of an mcp connection that names none is named: no client may name one. */
  static final String MCP_CONNECTION = "mcp-connection-";

  /**
   * Whether the conversation is an MCP client's: its calls, or the window's looks at them (which
   * name its session).
   */
  public boolean mcpConversation() {
    return role == Role.MCP || conversation.startsWith("conversation:" + MCP_SESSION);
  }

  /**
   * Where a call's idempotency key is remembered: per role for the window (its agent retries over a
   * new connection after a lost one), per connection for any other client, so that no client can
   * be handed the result of another's call.
   */
  public String idempotencyScope() {
    return role == Role.UI || role == Role.AGENT
        ? role.wire() + ":"
        : role.wire() + "@" + connection + ":";
  }

  public static Caller connection(Role role, String connection) {
    return new Caller(role, connection, "connection:" + role.wire() + ":" + connection);
  }
}
