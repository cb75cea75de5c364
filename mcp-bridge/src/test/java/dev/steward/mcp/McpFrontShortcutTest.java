package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.steward.mcp.front.Cancellations;
import dev.steward.mcp.front.McpFront;
import dev.steward.protocol.client.ServiceLink;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link McpFront#callRead}, the bridge's calls without the SDK's server: what it sends the
 * service is what the SDK's way sent, a client's cancellation finds the call by the same key, and
 * what it cannot take it leaves to the SDK.
 */
class McpFrontShortcutTest {

  /** A service that keeps what it is sent and answers when told. */
  private static final class Service implements ServiceLink {
    final List<String> methods = new CopyOnWriteArrayList<>();
    final List<JsonNode> sent = new CopyOnWriteArrayList<>();
    final List<CompletableFuture<JsonNode>> answers = new CopyOnWriteArrayList<>();
    volatile boolean connected = true;

    @Override
    public boolean isConnected() {
      return connected;
    }

    @Override
    public CompletableFuture<JsonNode> call(String method, @Nullable Object params) {
      methods.add(method);
      sent.add(Json.tree(params));
      CompletableFuture<JsonNode> answer = new CompletableFuture<>();
      answers.add(answer);
      return answer;
    }

    @Override
    public <T> T call(String method, @Nullable Object params, Class<T> type) {
      methods.add(method);
      throw new UnsupportedOperationException(method);
    }

    @Override
    public CompletableFuture<Void> notify(String method, @Nullable Object params) {
      JsonNode p = Json.tree(params);
      methods.add(
          method + " " + p.path("client").asText() + " " + p.path("version").asText());
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public ToolResult execute(dev.steward.protocol.method.Execute.Params params) {
      throw new UnsupportedOperationException();
    }
  }

  private final Service service = new Service();
  private final List<String> cancelled = new CopyOnWriteArrayList<>();
  private final Cancellations cancellations = new Cancellations(cancelled::add);
  private final McpSyncServer server = McpServer.sync(new StdioTransport(
          McpJsonDefaults.getMapper(),
          new ByteArrayInputStream(new byte[0]),
          OutputStream.nullOutputStream()))
      .serverInfo("t", "1")
      .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
      .build();
  private final McpFront.Link link = new McpFront.Link(service, "mcp-conversation", "");
  private final McpFront front = new McpFront(
      server,
      service,
      List.of(new ToolDefinition(
          "files.read_text",
          "Reads.",
          Json.object().put("type", "object"),
          Json.object().put("type", "object"),
          Risk.LOW,
          Confirmation.NEVER,
          List.of())),
      exchange -> link,
      () -> {},
      cancellations,
      McpFront.Calls.ANSWERED_ON_ARRIVAL);
  private final McpSchema.Implementation client = new McpSchema.Implementation("Cursor", "2.1");

  @AfterEach
  void stop() {
    server.close();
  }

  private static JsonNode params(String tool, String argumentsJson) throws Exception {
    return Json.parse("{\"name\":\"" + tool + "\",\"arguments\":" + argumentsJson + "}");
  }

  @Test
  void a_call_is_sent_as_the_sdks_way_sent_it_and_its_cancellation_finds_it() throws Exception {
    List<JsonNode> ids =
        List.of(IntNode.valueOf(7), TextNode.valueOf("7"), LongNode.valueOf(1L << 40));
    for (JsonNode id : ids) {
      CompletableFuture<String> answer = front.callRead(
          link, "session-1", client, id, params("files.read_text", "{\"path\":\"~/a.txt\"}"));
      assertNotNull(answer);
      JsonNode sent = service.sent.get(service.sent.size() - 1);
      String callId = sent.get("call_id").asText();
      assertEquals("mcp/session-1/" + callId, sent.get("trace_id").asText());
      assertEquals("files.read_text", sent.get("tool").asText());
      assertEquals(Json.parse("{\"path\":\"~/a.txt\"}"), sent.get("args"));
      assertEquals("mcp-conversation", sent.get("conversation_id").asText());
      assertTrue(sent.path("confirm_token").isMissingNode()
          || sent.get("confirm_token").isNull());
      assertTrue(sent.path("idempotency_key").isMissingNode()
          || sent.get("idempotency_key").isNull());
      // The client's cancellation, as the SDK reads it (its request id as the client wrote it).
      cancellations.message(new McpSchema.JSONRPCNotification(
          "2.0",
          "notifications/cancelled",
          Map.of("requestId", Json.mapper().treeToValue(id, Object.class))));
      assertEquals(callId, cancelled.get(cancelled.size() - 1), "cancelled by " + id);
      service
          .answers
          .get(service.answers.size() - 1)
          .complete(Json.tree(ToolResult.success(Json.object().put("content", "hi"), null)));
      JsonNode mcp = Json.parse(answer.get());
      assertEquals(id, mcp.get("id"));
      assertEquals("hi", mcp.at("/result/structuredContent/content").asText());
    }
    assertEquals(3, cancelled.size());
    assertEquals(
        1,
        service.methods.stream()
            .filter(m -> m.equals(
                Methods.SESSION_HELLO + " Cursor 2.1 " + dev.steward.mcp.front.McpFront.VERSION))
            .count(),
        "the client is named once: " + service.methods);
  }

  @Test
  void what_it_cannot_take_is_left_to_the_sdk() throws Exception {
    JsonNode id = IntNode.valueOf(1);
    assertNull(front.callRead(link, "s", client, id, params("files.unknown", "{}")), "not listed");
    assertNull(
        front.callRead(link, "s", client, id, params("files.read_text", "[1]")), "no object");
    assertNull(
        front.callRead(
            link,
            "s",
            client,
            id,
            Json.parse("{\"name\":\"files.read_text\",\"arguments\":{},"
                + "\"_meta\":{\"progressToken\":\"p\"}}")),
        "progress asked for");
    service.connected = false;
    assertNull(
        front.callRead(link, "s", client, id, params("files.read_text", "{}")), "no service");
    assertTrue(service.sent.isEmpty(), "nothing sent: " + service.sent);
  }

  @Test
  void a_call_without_arguments_sends_an_empty_object_and_a_lost_service_answers_unavailable()
      throws Exception {
    CompletableFuture<String> answer = front.callRead(
        link, "s", client, IntNode.valueOf(2), Json.parse("{\"name\":\"files.read_text\"}"));
    assertNotNull(answer);
    assertEquals(Json.object(), service.sent.get(0).get("args"));
    service
        .answers
        .get(0)
        .completeExceptionally(new IllegalStateException("the connection closed"));
    JsonNode mcp = Json.parse(answer.get());
    assertTrue(mcp.at("/result/isError").asBoolean());
    assertTrue(mcp.at("/result/content/0/text").asText().startsWith("UNAVAILABLE"));
  }
}
