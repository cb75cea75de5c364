package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.service.rpc.Dispatcher;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An MCP session of /mcp on the dispatcher: the role's checks, its refusals heard, its rate. */
class OwnSessionTest {

  private final List<RpcError> refused = new ArrayList<>();
  private final Dispatcher dispatcher = new Dispatcher((s, e) -> refused.add(e))
      .register("echo", (s, p) -> p)
      .register(
          "who",
          (s, p) -> Json.object().put("client", s.client()).put("role", s.role().wire()))
      .register("window.only", EnumSet.of(Role.UI), (s, p) -> Json.object())
      .register(Methods.SESSION_HELLO, (s, p) -> {
        s.named(p.path("client").asText());
        return Json.object();
      });

  @Test
  void its_calls_are_the_mcp_roles_and_what_the_role_may_not_call_is_refused_and_heard() {
    OwnSession s = new OwnSession(dispatcher, new RateLimiter(1000), 1000);
    assertEquals(
        7, s.call("echo", Json.object().put("n", 7), JsonNode.class).get("n").asInt());
    s.notify(Methods.SESSION_HELLO, new Hello.Params("Claude\u202e Code\n\"x\"", "1"));
    JsonNode who = s.call("who", null, JsonNode.class);
    assertEquals("mcp", who.get("role").asText());
    assertEquals("Claude Codex", who.get("client").asText(), "cleaned as a connection's name is");
    ClientException e =
        assertThrows(ClientException.class, () -> s.call("window.only", null, JsonNode.class));
    assertEquals(ErrorCodes.FORBIDDEN, e.rpcError().code());
    assertTrue(s.call("window.only", null).isCompletedExceptionally());
    assertEquals(2, refused.size(), "each refusal goes to the audit log's listener");
  }

  @Test
  void the_roles_rate_holds_here_too() {
    RateLimiter shared = new RateLimiter(3);
    OwnSession a = new OwnSession(dispatcher, shared, 3);
    OwnSession b = new OwnSession(dispatcher, shared, 3);
    a.call("echo", Json.object(), JsonNode.class);
    b.call("echo", Json.object(), JsonNode.class);
    a.call("echo", Json.object(), JsonNode.class);
    ClientException e =
        assertThrows(ClientException.class, () -> b.call("echo", Json.object(), JsonNode.class));
    assertEquals(ErrorCodes.RATE_LIMITED, e.rpcError().code());
    assertTrue(!a.id().equals(b.id()));
  }
}
