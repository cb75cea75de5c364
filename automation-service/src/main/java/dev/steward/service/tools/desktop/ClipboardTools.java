package dev.steward.service.tools.desktop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * {@code clipboard.read} (always confirmed: clipboards hold passwords; what it returns is untrusted)
 * and {@code clipboard.write} (confirmed when it would replace text already there). The audit log
 * never holds clipboard text: the written text is kept as size and hash, the read text not at all.
 */
public final class ClipboardTools {

  static final int MAX_CHARS = 1 << 20;

  private ClipboardTools() {}

  static final class Read extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(Read.class, "clipboard.read.json");

    Read() {
      super(DEFINITION);
    }

    @Override
    public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
      return Optional.of("the clipboard");
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      String text = SystemClipboard.read();
      ObjectNode result = Json.object();
      result.put("text", text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text);
      result.put("size", text.getBytes(StandardCharsets.UTF_8).length);
      return result;
    }

    @Override
    public String summarize(JsonNode args, JsonNode value) {
      return "read " + Counted.of(value.path("size").asLong(), "byte", "bytes") + " of text";
    }
  }

  static final class Write extends BaseTool {
    private static final ToolDefinition DEFINITION =
        ToolDefinitions.load(Write.class, "clipboard.write.json");

    Write() {
      super(DEFINITION);
    }

    @Override
    public Set<String> sensitiveArgs() {
      return Set.of("text");
    }

    @Override
    public boolean destructive(JsonNode args, ToolContext ctx) {
      try {
        return SystemClipboard.holdsText();
      } catch (ToolFailure e) {
        return false; // no clipboard: nothing to replace, and run() will say it is unavailable
      }
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      String text = args.path("text").asText();
      SystemClipboard.write(text);
      ObjectNode result = Json.object();
      result.put("size", text.getBytes(StandardCharsets.UTF_8).length);
      return result;
    }

    @Override
    public String summarize(JsonNode args, JsonNode value) {
      return "wrote " + Counted.of(value.path("size").asLong(), "byte", "bytes") + " of text";
    }
  }
}
