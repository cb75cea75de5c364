package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.steward.mcp.front.Cancellations;
import dev.steward.protocol.json.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the bridge does to the lines on its way in and out of MCP's stdio. */
class BridgeStreamsTest {

  @Test
  void a_call_carries_its_request_id_and_its_cancellation_names_the_call() throws Exception {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    String call = c.message(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"files.read_text\",\"arguments\":{}}}",
        "");
    assertEquals(
        "7", Json.parse(call).at("/params/_meta/" + "dev.steward~1request_id").asText());
    c.started("", "7", "mcp-call-1");
    String other = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}";
    assertEquals(other, c.message(other, ""));
    c.message(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}",
        "");
    assertEquals(List.of("mcp-call-1"), cancelled);
  }

  @Test
  void a_cancellation_that_comes_before_its_call_started_still_cancels_it() {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    c.message(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"a\"}}",
        "");
    c.started("", "\"a\"", "mcp-call-2");
    assertEquals(List.of("mcp-call-2"), cancelled);
  }

  @Test
  void a_session_that_cancels_calls_it_never_makes_cannot_crowd_out_anothers_cancel() {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    for (int i = 0; i < 10_000; i++) {
      c.message(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
              + i + "}}",
          "flood:");
    }
    c.message(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
        "honest:");
    c.started("honest:", "honest:1", "mcp-call-3");
    assertEquals(List.of("mcp-call-3"), cancelled);
  }

  @Test
  void a_parsed_call_carries_its_request_id_as_the_text_path_keys_it() throws Exception {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    String line = "{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"tools/call\",\"params\":{"
        + "\"name\":\"files.read_text\",\"arguments\":{\"path\":\"/x\"},"
        + "\"_meta\":{\"progressToken\":3}}}";
    McpSchema.JSONRPCMessage call = c.message(McpSchema.deserializeJsonRpcMessage(mapper, line));
    McpSchema.CallToolRequest request = mapper.convertValue(
        ((McpSchema.JSONRPCRequest) call).params(), McpSchema.CallToolRequest.class);
    assertEquals(Map.of("path", "/x"), request.arguments());
    assertEquals(3, request.meta().get("progressToken"), "the client's own _meta is kept");
    Object key = request.meta().get(Cancellations.KEY);
    assertEquals(
        Json.parse(c.message(line, ""))
            .at("/params/_meta/dev.steward~1request_id")
            .asText(),
        key);
    c.started("", key, "mcp-call-1");
    McpSchema.JSONRPCMessage ping = McpSchema.deserializeJsonRpcMessage(
        mapper, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}");
    assertSame(ping, c.message(ping));
    c.message(McpSchema.deserializeJsonRpcMessage(mapper, cancel("7")));
    assertEquals(List.of(), cancelled, "the number 7 is not the request \"7\"");
    c.message(McpSchema.deserializeJsonRpcMessage(mapper, cancel("\"7\"")));
    assertEquals(List.of("mcp-call-1"), cancelled);
  }

  private static String cancel(String requestId) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
        + "\"requestId\":" + requestId + "}}";
  }

  @Test
  void only_the_tool_changes_the_bridge_makes_are_announced() throws Exception {
    java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
    QuietStart out = new QuietStart(sink);
    String changed = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n";
    String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
    out.write((changed + answer).getBytes());
    out.expect(1);
    out.write(changed.getBytes());
    out.write(changed.getBytes());
    assertEquals(answer + changed, sink.toString());
    // A message that only mentions it (a short file's text) is never taken for one.
    sink.reset();
    String mentions = "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"content\":[{\"type\":\"text\","
        + "\"text\":\"notifications/tools/list_changed\"}],\"isError\":false}}\n";
    out.write(mentions.getBytes());
    assertEquals(mentions, sink.toString());
  }

  @Test
  void priming_goes_a_calls_whole_way_through_the_bridge_both_ways() throws Exception {
    String[] lines = Priming.once(McpJsonDefaults.getMapper()).split("\n");
    assertEquals(2, lines.length);
    com.fasterxml.jackson.databind.JsonNode answer = Json.parse(lines[0]);
    com.fasterxml.jackson.databind.node.ObjectNode shortcut =
        (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(lines[1]);
    assertEquals(4, shortcut.path("id").asInt());
    shortcut.put("id", 3);
    assertEquals(answer, shortcut, "the shortcut answers as the SDK's server does");
    assertEquals(3, answer.path("id").asInt());
    assertEquals(false, answer.at("/result/isError").asBoolean(true));
    assertEquals("text", answer.at("/result/structuredContent/content").asText());
    assertEquals(
        answer.at("/result/structuredContent"),
        Json.parse(answer.at("/result/content/0/text").asText()),
        "the text rendering is the structured result");
  }
}
