package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import org.junit.jupiter.api.Test;

/** A server's result is read as it was sent: every kind of content, and what is not content. */
class McpResultsTest {

  private static JsonNode read(String json) throws Exception {
    return ServerLink.WIRE.readTree(json);
  }

  @Test
  void each_kind_of_content_is_passed_on_or_described() throws Exception {
    JsonNode value = McpResults.value(read("""
            {"content":[
              {"type":"text","text":"hello"},
              {"type":"image","mimeType":"image/png","data":"AAAAAAAA"},
              {"type":"audio","mimeType":"audio/wav","data":"AAAA"},
              {"type":"resource_link","uri":"file:///a","name":"a"},
              {"type":"resource","resource":{"uri":"file:///b","text":"bee"}},
              {"type":"resource","resource":{"uri":"file:///c","mimeType":"x/y","blob":"AAAA"}},
              {"type":"hologram"},
              7
            ],
            "structuredContent":{"n":1}}"""), "s");
    JsonNode c = value.get("content");
    assertEquals(8, c.size());
    assertEquals("hello", c.get(0).get("text").asText());
    assertEquals("image", c.get(1).get("type").asText());
    assertEquals(6, c.get(1).get("bytes").asLong());
    assertFalse(c.get(1).has("data"), "binary content is described, never passed on");
    assertEquals("audio/wav", c.get(2).get("mime_type").asText());
    assertEquals("file:///a", c.get(3).get("uri").asText());
    assertEquals("bee", c.get(4).get("text").asText());
    assertEquals(3, c.get(5).get("bytes").asLong());
    assertEquals("unknown", c.get(6).get("type").asText());
    assertEquals("unknown", c.get(7).get("type").asText());
    assertEquals(1, value.get("structured_content").get("n").asInt());
    assertFalse(value.get("truncated").asBoolean());
  }

  @Test
  void content_that_is_not_a_list_has_no_items() throws Exception {
    JsonNode value = McpResults.value(
        read("{\"content\":{\"a\":{\"type\":\"text\",\"text\":\"hidden\"}}}"), "s");
    assertEquals(0, value.get("content").size());
  }

  @Test
  void a_cut_never_splits_a_character() throws Exception {
    String text = "y".repeat(McpResults.MAX_TEXT_CHARS - 40) + "\uD83D\uDE00".repeat(100);
    JsonNode value = McpResults.value(
        read("{\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}"), "s");
    String kept = value.get("content").get(0).get("text").asText();
    assertTrue(Character.isLowSurrogate(kept.charAt(kept.length() - 1)), "ends on a whole pair");
    assertTrue(value.get("truncated").asBoolean());
  }

  @Test
  void text_that_is_not_a_string_counts_as_none() throws Exception {
    JsonNode value = McpResults.value(
        read(
            "{\"content\":[{\"type\":\"text\",\"text\":{\"a\":\"" + "x".repeat(200_000) + "\"}}]}"),
        "s");
    assertEquals("", value.get("content").get(0).get("text").asText());
  }

  @Test
  void long_text_and_big_structured_content_are_cut_and_say_so() throws Exception {
    String big = "y".repeat(McpResults.MAX_TEXT_CHARS + 10);
    JsonNode value = McpResults.value(
        read("{\"content\":[{\"type\":\"text\",\"text\":\"" + big + "\"}],"
            + "\"structuredContent\":{\"big\":\"" + big + "\"}}"),
        "s");
    assertTrue(value.get("truncated").asBoolean());
    assertFalse(value.has("structured_content"));
    assertTrue(
        value.get("content").get(0).get("text").asText().length() < McpResults.MAX_TEXT_CHARS);
    assertTrue(value.get("note").asText().contains("the server sent"));
  }

  @Test
  void an_error_result_is_a_tool_error_quoting_its_text() throws Exception {
    ToolFailure f = assertThrows(
        ToolFailure.class,
        () -> McpResults.value(
            read("{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"no such file\"}]}"),
            "fs"));
    assertEquals(ToolErrorCodes.EXECUTION_ERROR, f.error().code());
    assertTrue(f.getMessage().contains("no such file"), f.getMessage());
  }

  @Test
  void what_is_not_a_result_object_is_refused() throws Exception {
    for (String bad : new String[] {"5", "\"text\"", "[]", "null"}) {
      ToolFailure f = assertThrows(ToolFailure.class, () -> McpResults.value(read(bad), "fs"));
      assertEquals(ToolErrorCodes.EXECUTION_ERROR, f.error().code());
    }
    assertThrows(
        ToolFailure.class,
        () ->
            McpResults.value(com.fasterxml.jackson.databind.node.MissingNode.getInstance(), "fs"));
  }
}
