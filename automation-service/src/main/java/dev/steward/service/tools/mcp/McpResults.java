package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import org.jspecify.annotations.Nullable;

/**
 * A server's tool result as Steward's result value, within a budget: text up to {@link
 * #MAX_TEXT_CHARS} in all, structured content only when it fits too; images, audio and binary
 * resources are described (type and size), never passed on. What is cut says so.
 */
final class McpResults {

  /** About 25,000 tokens: room for a page of text, not for a server to flood the model. */
  static final int MAX_TEXT_CHARS = 100_000;

  /** More items than any answer needs; the rest are dropped and the result says it was cut. */
  static final int MAX_ITEMS = 200;

  static final int MAX_LABEL_CHARS = 2_000;

  /** How much of a server's own error message a refusal quotes. */
  static final int MAX_ERROR_CHARS = 4_000;

  private McpResults() {}

  /** {@code result} is the {@code result} of the server's answer to {@code tools/call}, as sent. */
  static JsonNode value(JsonNode result, String server) throws ToolFailure {
    if (!result.isObject()) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the MCP server “" + server + "” answered with something that is not a tool result");
    }
    if (result.path("isError").asBoolean(false)) {
      String text = allText(result);
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the MCP server “" + server + "” answered with an error: "
              + (text.isBlank() ? "(no message)" : cut(text, MAX_ERROR_CHARS)));
    }
    ObjectNode value = Json.object();
    ArrayNode content = value.putArray("content");
    int budget = MAX_TEXT_CHARS;
    int sent = 0;
    int kept = 0;
    boolean dropped = false;
    for (JsonNode c : items(result)) {
      if (content.size() >= MAX_ITEMS || budget <= 0) {
        dropped = true;
        continue;
      }
      ObjectNode item = Json.object();
      String text = null;
      switch (c.path("type").asText()) {
        case "text" -> {
          item.put("type", "text");
          text = string(c.get("text"));
        }
        case "image", "audio" ->
          item.put("type", c.path("type").asText())
              .put("mime_type", label(c.get("mimeType")))
              .put("bytes", base64Bytes(c.get("data")));
        case "resource_link" ->
          item.put("type", "resource_link")
              .put("uri", label(c.get("uri")))
              .put("name", label(c.get("name")));
        case "resource" -> {
          JsonNode r = c.path("resource");
          item.put("type", "resource").put("uri", label(r.get("uri")));
          if (r.has("text")) text = string(r.get("text"));
          else if (r.has("blob"))
            item.put("mime_type", label(r.get("mimeType")))
                .put("bytes", base64Bytes(r.get("blob")));
        }
        default -> item.put("type", "unknown");
      }
      // What else an item says (a link's name and address, a type) counts against the budget too.
      int said = item.toString().length();
      budget -= said;
      sent += said;
      kept += said;
      if (text != null) {
        sent += text.length();
        String part = text.length() <= budget ? text : prefix(text, Math.max(0, budget));
        budget -= part.length();
        kept += part.length();
        item.put("text", part);
      }
      content.add(item);
    }
    boolean truncated = sent > kept || dropped;
    JsonNode structured = result.get("structuredContent");
    if (structured != null && !structured.isNull()) {
      int size = structured.toString().length();
      if (size <= budget) {
        value.set("structured_content", structured);
      } else {
        truncated = true;
        sent += size;
      }
    }
    value.put("truncated", truncated);
    if (truncated) {
      value.put(
          "note",
          "the server sent " + sent + " characters; Steward passes on the first " + MAX_TEXT_CHARS
              + " (ask for less, or for a part)");
    }
    return value;
  }

  private static String allText(JsonNode result) {
    StringBuilder out = new StringBuilder();
    for (JsonNode c : items(result)) {
      if ("text".equals(c.path("type").asText()) && c.path("text").isTextual()) {
        if (out.length() > 0) out.append('\n');
        out.append(c.path("text").textValue());
      }
    }
    return out.toString();
  }

  /** The result's content items; content that is not a list has none. */
  private static Iterable<JsonNode> items(JsonNode result) {
    JsonNode content = result.path("content");
    return content.isArray() ? content : java.util.List.of();
  }

  /** A text field as sent; anything but a string counts as none. */
  private static String string(@Nullable JsonNode n) {
    return n != null && n.isTextual() ? n.textValue() : "";
  }

  /** A name, an address or a type: a line's worth, not a channel of its own. */
  private static @Nullable String label(@Nullable JsonNode n) {
    return n == null || !n.isTextual() ? null : cut(n.textValue(), MAX_LABEL_CHARS);
  }

  private static long base64Bytes(@Nullable JsonNode data) {
    return data == null || !data.isTextual() ? 0 : data.textValue().length() / 4L * 3L;
  }

  static String cut(String text, int max) {
    return text.length() <= max ? text : prefix(text, max) + "… (cut)";
  }

  /** At most {@code n} chars of {@code text}, never half of a surrogate pair. */
  private static String prefix(String text, int n) {
    int end = n > 0 && Character.isHighSurrogate(text.charAt(n - 1)) ? n - 1 : n;
    return text.substring(0, end);
  }
}
