package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
