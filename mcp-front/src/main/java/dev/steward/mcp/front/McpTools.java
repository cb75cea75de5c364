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
import org.jspecify.annotations.Nullable;

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
    String text =
        e == null ? errorText(null, null, null) : errorText(e.code(), e.message(), e.field());
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
  }

  /** A refused or failed call's text: its code and message, and who alone can give a click. */
  static String errorText(@Nullable String code, @Nullable String message, @Nullable String field) {
    if (code == null || message == null) return "EXECUTION_ERROR: the service gave no reason";
    String text = code + ": " + message + (field == null ? "" : " (at " + field + ")");
    if (NEEDS_A_CLICK.contains(code))
      text += ". Only the user can approve this call, in the Steward window; nothing an MCP client"
          + " sends can stand in for that click.";
    return text;
  }

  /**
   * What the SDK's server answers in place of a success without structured content, from a tool
   * with an output schema (every one of Steward's).
   */
  static final String NO_STRUCTURED_CONTENT =
      "Response missing structured content which is expected when calling tool with non-empty"
          + " outputSchema";

  /**
   * The whole JSON-RPC answer to a {@code tools/call} with the id {@code id}, written straight from
   * the service's {@code tool.execute} result as it arrived ({@link ToolResult}'s JSON): the answer
   * {@link #result} makes through the SDK's server and mapper, with no records between. {@code
   * outputSchema}: whether the tool was listed with one (the SDK then refuses a success without
   * structured content).
   */
  public static String answer(JsonNode id, JsonNode toolResult, boolean outputSchema) {
    if (!toolResult.path("ok").asBoolean(false)) {
      JsonNode e = toolResult.path("error");
      return answer(
          id,
          errorText(text(e.get("code")), text(e.get("message")), text(e.get("field"))),
          true,
          null);
    }
    JsonNode value = toolResult.get("value");
    if (value == null || value.isNull()) value = Json.object();
    if (value.isObject()) return answer(id, Json.write(value), false, value);
    return outputSchema
        ? answer(id, NO_STRUCTURED_CONTENT, true, null)
        : answer(id, Json.write(value), false, null);
  }

  /** The answer of a call that failed on its way, as an error result that says so. */
  public static String answer(JsonNode id, String errorText) {
    return answer(id, errorText, true, null);
  }

  private static String answer(
      JsonNode id, String text, boolean isError, @Nullable JsonNode structured) {
    java.io.StringWriter out = new java.io.StringWriter(text.length() * 2 + 96);
    try (com.fasterxml.jackson.core.JsonGenerator g = Json.mapper().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("jsonrpc", McpSchema.JSONRPC_VERSION);
      g.writeFieldName("id");
      g.writeTree(id);
      g.writeObjectFieldStart("result");
      g.writeArrayFieldStart("content");
      g.writeStartObject();
      g.writeStringField("type", "text");
      g.writeStringField("text", text);
      g.writeEndObject();
      g.writeEndArray();
      g.writeBooleanField("isError", isError);
      if (structured != null) {
        g.writeFieldName("structuredContent");
        g.writeTree(structured);
      }
      g.writeEndObject();
      g.writeEndObject();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toString();
  }

  private static @Nullable String text(@Nullable JsonNode node) {
    return node == null || !node.isTextual() ? null : node.asText();
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(JsonNode node) {
    return Json.mapper().convertValue(node, Map.class);
  }
}
