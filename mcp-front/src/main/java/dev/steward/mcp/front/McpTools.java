package dev.steward.mcp.front;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Locale;
import java.util.Map;

/**
 * Steward's tool contract in MCP's terms (SPEC §12): a definition as an MCP tool with its schemas
 * and annotations, and a tool result as an MCP call result — a refusal is a result with {@code
 * isError}, the code and message in its text, never a protocol error.
 */
public final class McpTools {

  /** Codes that mean the call waits for a person's approval. */
  private static final java.util.Set<String> NEEDS_A_CLICK =
      java.util.Set.of(ToolErrorCodes.TOKEN_MISSING, ToolErrorCodes.CONFIRMATION_REQUIRED);

  private McpTools() {}

  /**
   * Whether a tool meets the world outside the machine: it can send data out, or what it reads
   * was written by strangers (a page, a forwarded mail).
   */
  private static boolean openWorld(ToolDefinition d) {
    return d.sends()
        || d.name().startsWith("browser.")
        || d.name().startsWith("web.")
        || d.name().startsWith("mail.");
  }

  public static McpSchema.Tool tool(ToolDefinition d) {
    boolean readOnly = d.risk() == Risk.LOW && d.confirmation() == Confirmation.NEVER;
    return McpSchema.Tool.builder()
        .name(d.name())
        .title(title(d.name()))
        .description(d.description())
        .inputSchema(map(d.argsSchema()))
        .outputSchema(map(d.resultSchema()))
        .annotations(new McpSchema.ToolAnnotations(
            title(d.name()), readOnly, !readOnly, null, openWorld(d), null))
        .build();
  }

  /** {@code files.read_text} → "Files: read text". */
  public static String title(String name) {
    int dot = name.indexOf('.');
    String pack = dot < 0 ? "" : name.substring(0, dot);
    String verb = (dot < 0 ? name : name.substring(dot + 1)).replace('_', ' ').replace('.', ' ');
    return pack.isEmpty()
        ? verb
        : pack.substring(0, 1).toUpperCase(Locale.ROOT) + pack.substring(1) + ": " + verb;
  }

  public static McpSchema.CallToolResult result(ToolResult r) {
    if (r.ok()) {
      JsonNode value = r.value() == null ? Json.object() : r.value();
      McpSchema.CallToolResult.Builder out =
          McpSchema.CallToolResult.builder().addTextContent(Json.write(value)).isError(false);
      // The tree as it is: the SDK's mapper writes it, with no copy into maps on the way.
      if (value.isObject()) out.structuredContent(value);
      return out.build();
    }
    ToolError e = r.error();
    String text = e == null
        ? "EXECUTION_ERROR: the service gave no reason"
        : e.code() + ": " + e.message() + (e.field() == null ? "" : " (at " + e.field() + ")");
    if (e != null && NEEDS_A_CLICK.contains(e.code()))
      text += ". Only the user can approve this call, in the Steward window; nothing an MCP client"
          + " sends can stand in for that click.";
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(JsonNode node) {
    return Json.mapper().convertValue(node, Map.class);
  }
}
