package dev.steward.service.tools.clipboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.tools.Schemas;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
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

  public static void registerAll(ToolRegistry registry) {
    registry.register(new Read()).register(new Write());
  }

  static final class Read extends BaseTool {
    private static final ToolDefinition DEFINITION = new ToolDefinition(
        "clipboard.read",
        "Read the text on the clipboard. Always asks the user: clipboards often hold passwords.",
        Schemas.parse("{'$schema':'" + Schemas.DIALECT + "','type':'object','properties':{},'additionalProperties':false}"),
        Schemas.parse("{'type':'object','properties':{'text':{'type':'string'},'size':{'type':'integer'}},'required':['text','size']}"),
        Risk.MEDIUM, Confirmation.ALWAYS, List.of());

    Read() {
      super(DEFINITION, false);
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
      return "read " + value.path("size").asLong() + " bytes of text";
    }
  }

  static final class Write extends BaseTool {
    private static final ToolDefinition DEFINITION = new ToolDefinition(
        "clipboard.write",
        "Put text on the clipboard. Asks the user when it would replace text already there.",
        Schemas.parse("{'$schema':'" + Schemas.DIALECT + "','type':'object','properties':{"
            + "'text':{'type':'string','maxLength':" + MAX_CHARS + "}},'required':['text'],'additionalProperties':false}"),
        Schemas.parse("{'type':'object','properties':{'size':{'type':'integer'}},'required':['size']}"),
        Risk.MEDIUM, Confirmation.IF_DESTRUCTIVE, List.of());

    Write() {
      super(DEFINITION, true);
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
      return "wrote " + value.path("size").asLong() + " bytes of text";
    }
  }
}
