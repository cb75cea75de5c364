package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * A slash command typed in the chat: {@code /help}, {@code /tools}, {@code /call <tool> <json>}.
 * Commands need no model; {@code /call} goes through the same preflight, dialog, token and audit
 * as a call the model proposes.
 */
public record Command(String name, String rest) {

  public static final String HELP = """
      Commands:
        /help — this list
        /tools — the tools Steward has, with their risk
        /call <tool> <json> — run one tool through the gate, e.g. /call files.list_dir {"path":"~/Steward"}
      Anything else goes to the model.""";

  public static Command parse(String text) {
    String body = text.strip();
    if (!body.startsWith("/")) throw new IllegalArgumentException("a command starts with /");
    body = body.substring(1);
    int space = indexOfWhitespace(body);
    String name = (space < 0 ? body : body.substring(0, space)).toLowerCase(Locale.ROOT);
    String rest = space < 0 ? "" : body.substring(space).strip();
    return new Command(name, rest);
  }

  /** The call a {@code /call} command asks for; throws with a usable message when malformed. */
  public ProposedCall toCall(RemoteTools tools, String callId) {
    if (rest.isEmpty())
      throw new IllegalArgumentException(
          "Usage: /call <tool> <json>, e.g. /call files.list_dir {\"path\":\"~/Steward\"}");
    int space = indexOfWhitespace(rest);
    String tool = space < 0 ? rest : rest.substring(0, space);
    String json = space < 0 ? "{}" : rest.substring(space).strip();
    ToolDefinition definition = tools
        .definition(tool)
        .orElseThrow(() ->
            new IllegalArgumentException("There is no tool \"" + tool + "\". /tools lists them."));
    JsonNode args;
    try {
      args = Json.parse(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "The arguments are not valid JSON: " + firstLine(e.getMessage()));
    }
    if (args == null || !args.isObject())
      throw new IllegalArgumentException(
          "The arguments are a JSON object, e.g. {\"path\":\"~/Steward\"}");
    return new ProposedCall(callId, definition, args);
  }

  public static String describeTools(List<ToolDefinition> tools) {
    StringBuilder text = new StringBuilder("Tools (risk — what it does):\n");
    for (ToolDefinition t : tools) {
      text.append("  ")
          .append(t.name())
          .append(" (")
          .append(t.risk().wire())
          .append(") — ")
          .append(firstLine(t.description()))
          .append('\n');
    }
    return text.toString().stripTrailing();
  }

  private static int indexOfWhitespace(String s) {
    for (int i = 0; i < s.length(); i++) if (Character.isWhitespace(s.charAt(i))) return i;
    return -1;
  }

  private static String firstLine(@org.jspecify.annotations.Nullable String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
