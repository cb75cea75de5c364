package dev.steward.protocol.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;

/**
 * Renders tool definitions in OpenAI's function-calling format, so any client that speaks it can
 * use Steward's tools. Function names may not contain dots there, so dots become double
 * underscores ({@code files.read_text} → {@code files__read_text}); {@link #toolName} reverses it.
 */
public final class OpenAiFunctions {

  private static final String DOT = "__";

  private OpenAiFunctions() {}

  public static ArrayNode render(Collection<ToolDefinition> tools) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    tools.forEach(t -> out.add(render(t)));
    return out;
  }

  public static ObjectNode render(ToolDefinition tool) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("type", "function");
    ObjectNode function = node.putObject("function");
    function.put("name", functionName(tool.name()));
    function.put("description", tool.description() + " (risk: " + tool.risk().wire() + ")");
    ObjectNode parameters = tool.argsSchema().deepCopy();
    parameters.remove("$schema");
    function.set("parameters", parameters);
    return node;
  }

  public static String functionName(String toolName) {
    return toolName.replace(".", DOT);
  }

  public static String toolName(String functionName) {
    return functionName.replace(DOT, ".");
  }
}
