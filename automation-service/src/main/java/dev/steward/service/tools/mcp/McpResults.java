package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import io.modelcontextprotocol.spec.McpSchema;

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

  static JsonNode value(McpSchema.CallToolResult result, String server) throws ToolFailure {
    if (Boolean.TRUE.equals(result.isError())) {
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
    for (McpSchema.Content c :
        result.content() == null ? java.util.List.<McpSchema.Content>of() : result.content()) {
      if (content.size() >= MAX_ITEMS || budget <= 0) {
        dropped = true;
        continue;
      }
      ObjectNode item = Json.object();
      String text = null;
      if (c instanceof McpSchema.TextContent t) {
        item.put("type", "text");
        text = t.text() == null ? "" : t.text();
      } else if (c instanceof McpSchema.ImageContent i) {
        item.put("type", "image")
            .put("mime_type", label(i.mimeType()))
            .put("bytes", base64Bytes(i.data()));
      } else if (c instanceof McpSchema.AudioContent a) {
        item.put("type", "audio")
            .put("mime_type", label(a.mimeType()))
            .put("bytes", base64Bytes(a.data()));
      } else if (c instanceof McpSchema.ResourceLink l) {
        item.put("type", "resource_link").put("uri", label(l.uri())).put("name", label(l.name()));
      } else if (c instanceof McpSchema.EmbeddedResource r) {
        item.put("type", "resource").put("uri", label(r.resource().uri()));
        if (r.resource() instanceof McpSchema.TextResourceContents t)
          text = t.text() == null ? "" : t.text();
        else if (r.resource() instanceof McpSchema.BlobResourceContents b)
          item.put("mime_type", label(b.mimeType())).put("bytes", base64Bytes(b.blob()));
      } else {
        item.put("type", "unknown");
      }
      // What else an item says (a link's name and address, a type) counts against the budget too.
      int said = item.toString().length();
      budget -= said;
      sent += said;
      kept += said;
      if (text != null) {
        sent += text.length();
        String part = text.length() <= budget ? text : text.substring(0, Math.max(0, budget));
        budget -= part.length();
        kept += part.length();
        item.put("text", part);
      }
      content.add(item);
    }
    boolean truncated = sent > kept || dropped;
    if (result.structuredContent() != null) {
      JsonNode structured = Json.mapper().valueToTree(result.structuredContent());
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

  private static String allText(McpSchema.CallToolResult result) {
    StringBuilder out = new StringBuilder();
    if (result.content() != null) {
      for (McpSchema.Content c : result.content()) {
        if (c instanceof McpSchema.TextContent t && t.text() != null) {
          if (out.length() > 0) out.append('\n');
          out.append(t.text());
        }
      }
    }
    return out.toString();
  }

  /** A name, an address or a type: a line's worth, not a channel of its own. */
  private static @org.jspecify.annotations.Nullable String label(
      @org.jspecify.annotations.Nullable String s) {
    return s == null ? null : cut(s, MAX_LABEL_CHARS);
  }

  private static long base64Bytes(String data) {
    return data == null ? 0 : data.length() / 4L * 3L;
  }

  static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "… (cut)";
  }
}
