package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolResult;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shortcut's answers ({@link McpTools#answer}) against the SDK's server's own for the same
 * service results: the same JSON, whatever the result — an object, a list, nothing, a refusal with
 * or without its field, one that waits for a click — and whatever the tool's output schema.
 */
class McpAnswerTest {

  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final AuditMeta AUDIT = new AuditMeta("9", "allowed", NOW, NOW, "read");

  private static final List<ToolResult> RESULTS = List.of(
      ToolResult.success(Json.object().put("content", "a \"quoted\"\nline é ✓").put("n", 1), AUDIT),
      ToolResult.success(
          com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
              .arrayNode()
              .add(1)
              .add(Json.object().putNull("a")),
          AUDIT),
      ToolResult.success(TextNode.valueOf("just text"), AUDIT),
      ToolResult.success(Json.object(), null),
      ToolResult.failure(
          new ToolError("SCOPE_DENIED", "outside your folders", "/path", null), AUDIT),
      ToolResult.failure(ToolError.of("TOKEN_MISSING", "needs your click"), AUDIT),
      ToolResult.failure(ToolError.of("CONFIRMATION_REQUIRED", "ask"), null));

  @Test
  void the_shortcut_answers_as_the_sdks_server_does() throws Exception {
    for (boolean outputSchema : new boolean[] {true, false}) {
      for (ToolResult r : RESULTS) {
        for (JsonNode id : List.of(IntNode.valueOf(7), TextNode.valueOf("call-7"))) {
          JsonNode serviceAnswer = Json.parse(Json.write(r));
          assertEquals(
              viaTheSdk(r, outputSchema, id),
              Json.parse(McpTools.answer(id, serviceAnswer, outputSchema)),
              r + (outputSchema ? " with" : " without") + " an output schema");
        }
      }
    }
  }

  @Test
  void a_success_without_its_value_is_an_empty_object_as_the_record_has_it() throws Exception {
    JsonNode answer =
        Json.parse(McpTools.answer(IntNode.valueOf(1), Json.parse("{\"ok\":true}"), true));
    assertEquals(Json.object(), answer.at("/result/structuredContent"));
    assertEquals("{}", answer.at("/result/content/0/text").asText());
  }

  /** The answer the SDK's server writes for a tool whose handler gives {@code McpTools.result(r)}. */
  private static JsonNode viaTheSdk(ToolResult r, boolean outputSchema, JsonNode id)
      throws Exception {
    McpSchema.Tool.Builder tool = McpSchema.Tool.builder()
        .name("t.t")
        .inputSchema(new McpSchema.JsonSchema("object", Map.of(), null, null, null, null));
    if (outputSchema) tool.outputSchema(Map.of("type", "object"));
    String call = Json.write(Json.object().put("jsonrpc", "2.0").set("id", id));
    String lines = String.join(
            "\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            call.substring(0, call.length() - 1)
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"t.t\",\"arguments\":{}}}")
        + "\n";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StdioTransport stdio = new StdioTransport(
        McpJsonDefaults.getMapper(),
        new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)),
        out);
    McpSyncServer server = McpServer.sync(stdio)
        .serverInfo("t", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .validateToolInputs(false)
        .jsonSchemaValidator((schema, content) ->
            io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse.asValid(
                null))
        .tools(new McpServerFeatures.SyncToolSpecification(
            tool.build(), (exchange, request) -> McpTools.result(r)))
        .build();
    try {
      stdio.awaitInputEnd();
      stdio.finish(java.time.Duration.ofSeconds(10));
      for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
        JsonNode m = Json.parse(line);
        if (m.path("id").equals(id)) return m;
      }
      throw new AssertionError("no answer to the call: " + out);
    } finally {
      server.closeGracefully();
    }
  }
}
