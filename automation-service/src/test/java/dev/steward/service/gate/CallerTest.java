package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.method.Role;
import org.junit.jupiter.api.Test;

class CallerTest {

  @Test
  void a_named_conversation_is_shared_across_connections() {
    assertEquals(
        Caller.of(Role.AGENT, "c1", "conv-1").conversation(),
        Caller.of(Role.AGENT, "c2", "conv-1").conversation());
  }

  @Test
  void without_a_plain_id_the_connection_is_the_conversation() {
    for (String id : new String[] {"", "two words", "x".repeat(129), "line\nbreak", "ünïcode"}) {
      assertEquals(Caller.connection(Role.AGENT, "c1"), Caller.of(Role.AGENT, "c1", id), id);
    }
    assertEquals(Caller.connection(Role.AGENT, "c1"), Caller.of(Role.AGENT, "c1", null));
  }

  @Test
  void an_mcp_bridge_names_only_its_own_sessions_and_other_clients_name_none() {
    assertEquals(
        "conversation:mcp-1234",
        Caller.of(Role.MCP, "c9", "mcp-1234").conversation(),
        "the bridge's session outlives a reconnection");
    assertEquals(
        "conversation:mcp-connection-c9",
        Caller.of(Role.MCP, "c9", "conv-1").conversation(),
        "never a window conversation: the connection's own session");
    assertEquals(
        "conversation:mcp-connection-c9",
        Caller.of(Role.MCP, "c9", null).conversation(),
        "a connection that names none: a session the window can name");
    assertEquals(
        "conversation:mcp-connection-c9",
        Caller.of(Role.MCP, "c9", "mcp-connection-c1").conversation(),
        "never another connection's");
    assertTrue(Caller.of(Role.MCP, "c9", null).mcpConversation());
  }

  @Test
  void idempotency_keys_are_per_role_for_the_window_and_per_connection_for_others() {
    assertEquals(
        Caller.of(Role.AGENT, "c1", null).idempotencyScope(),
        Caller.of(Role.AGENT, "c2", null).idempotencyScope());
    assertEquals(
        false,
        Caller.of(Role.MCP, "c1", null)
            .idempotencyScope()
            .equals(Caller.of(Role.MCP, "c2", null).idempotencyScope()));
  }

  @Test
  void rows_name_a_client_from_outside_the_window() {
    assertEquals("", Caller.of(Role.AGENT, "c1", null).named("steward-agent").askedBy());
    assertEquals(
        " — asked by Claude 1.0 (mcp)",
        Caller.of(Role.MCP, "c1", null).named("Claude 1.0").askedBy());
  }
}
