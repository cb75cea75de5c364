package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Steward's own tool calls: sent with ids of their own, answered straight to the caller, and
 * nothing a server sends with such an id reaches the SDK's session.
 */
class TrackedTransportTest {

  /** Keeps what is sent, and offers what the "server" sends to the tap first. */
  private static final class Wire implements TappedTransport {
    final List<String> sent = new ArrayList<>();
    final List<JsonNode> passedOn = new ArrayList<>();
    Predicate<JsonNode> tap = m -> false;

    @Override
    public void tap(Predicate<JsonNode> first) {
      tap = first;
    }

    void arrive(String json) throws Exception {
      JsonNode m = ServerLink.WIRE.readTree(json);
      if (!tap.test(m)) passedOn.add(m);
    }

    @Override
    public Mono<Void> connect(
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
      return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> {
        try {
          sent.add(ServerLink.WIRE.writeValueAsString(message));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      throw new UnsupportedOperationException();
    }
  }

  private static String idOf(String sent) throws Exception {
    return ServerLink.WIRE.readTree(sent).get("id").asText();
  }

  @Test
  void a_call_is_answered_straight_to_its_caller() throws Exception {
    Wire wire = new Wire();
    TrackedTransport t = new TrackedTransport(wire, () -> {});
    CompletableFuture<JsonNode> call =
        t.call("read", ServerLink.WIRE.readTree("{\"path\":\"/a\"}"), "tok");
    JsonNode sent = ServerLink.WIRE.readTree(wire.sent.get(0));
    assertEquals("tools/call", sent.get("method").asText());
    assertEquals("read", sent.at("/params/name").asText());
    assertEquals("/a", sent.at("/params/arguments/path").asText());
    assertEquals("tok", sent.at("/params/_meta/progressToken").asText());
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"" + idOf(wire.sent.get(0))
        + "\",\"result\":{\"content\":[]}}");
    assertTrue(call.get().has("content"));
    assertTrue(wire.passedOn.isEmpty());
  }

  @Test
  void an_error_answer_fails_the_call_with_the_servers_error() throws Exception {
    Wire wire = new Wire();
    TrackedTransport t = new TrackedTransport(wire, () -> {});
    CompletableFuture<JsonNode> call = t.call("read", ServerLink.WIRE.createObjectNode(), "tok");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"" + idOf(wire.sent.get(0))
        + "\",\"error\":{\"code\":-32602,\"message\":\"bad path\",\"data\":\"d\"}}");
    ExecutionException e = assertThrows(ExecutionException.class, call::get);
    McpError m = assertInstanceOf(McpError.class, e.getCause());
    assertEquals(-32602, m.getJsonRpcError().code());
    assertEquals("bad path", m.getJsonRpcError().message());
    assertEquals("d", m.getJsonRpcError().data());
  }

  @Test
  void what_the_sdk_asked_and_what_the_server_asks_go_to_the_sdk() throws Exception {
    Wire wire = new Wire();
    AtomicInteger changes = new AtomicInteger();
    TrackedTransport t = new TrackedTransport(wire, changes::incrementAndGet);
    t.call("read", ServerLink.WIRE.createObjectNode(), "tok");
    String ours = idOf(wire.sent.get(0));
    // The SDK's own requests' answers, and a server's request that reuses a call's id.
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"abc-1\",\"result\":{}}");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"" + ours + "\",\"method\":\"roots/list\"}");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}");
    assertEquals(4, wire.passedOn.size());
    wire.arrive("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    assertEquals(1, changes.get());
    assertEquals(4, wire.passedOn.size(), "list changes are Steward's, not the SDK's");
  }

  @Test
  void resource_and_prompt_notifications_never_reach_the_sdk() throws Exception {
    Wire wire = new Wire();
    new TrackedTransport(wire, () -> {});
    for (String method : List.of(
        "notifications/resources/list_changed",
        "notifications/resources/updated",
        "notifications/prompts/list_changed")) {
      wire.arrive("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":{\"uri\":\"x\"}}");
    }
    assertTrue(wire.passedOn.isEmpty(), "the SDK would list or read them without bound");
  }

  @Test
  void an_answer_to_no_call_in_flight_is_dropped() throws Exception {
    Wire wire = new Wire();
    TrackedTransport t = new TrackedTransport(wire, () -> {});
    CompletableFuture<JsonNode> call = t.call("read", ServerLink.WIRE.createObjectNode(), "tok");
    t.done("tok");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"" + idOf(wire.sent.get(0)) + "\",\"result\":{}}");
    wire.arrive("{\"jsonrpc\":\"2.0\",\"id\":\"steward-call-999\",\"result\":{}}");
    assertFalse(call.isDone());
    assertTrue(wire.passedOn.isEmpty());
  }

  @Test
  void cancelling_tells_the_server_which_call_and_closing_ends_the_calls() throws Exception {
    Wire wire = new Wire();
    TrackedTransport t = new TrackedTransport(wire, () -> {});
    var call = t.call("slow", ServerLink.WIRE.createObjectNode(), "tok");
    String id = idOf(wire.sent.get(0));
    t.cancel("tok", "the user cancelled");
    JsonNode cancel = ServerLink.WIRE.readTree(wire.sent.get(1));
    assertEquals("notifications/cancelled", cancel.get("method").asText());
    assertEquals(id, cancel.at("/params/requestId").asText());
    assertEquals(1, t.waiting());
    t.done("tok");
    assertEquals(0, t.waiting(), "a cancelled call leaves nothing behind");
    call = t.call("slow", ServerLink.WIRE.createObjectNode(), "tok");
    t.close();
    ExecutionException e = assertThrows(ExecutionException.class, call::get);
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertThrows(
        ExecutionException.class,
        () -> t.call("later", ServerLink.WIRE.createObjectNode(), "tok2").get());
  }
}
