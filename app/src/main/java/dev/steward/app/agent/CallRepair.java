package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import java.io.IOException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Reads a model's call the way a small model means it, without guessing what the user wants: a
 * name with confused separators that can mean one tool, arguments sent as a JSON string or in a
 * code fence, a call wrapped in its own {@code {name, arguments}}. Every other mistake goes back to
 * the model as a short, exact problem it can correct. What comes out still goes to the gate, which
 * checks it as it checks any call; the dialog shows the call as read here.
 */
final class CallRepair {

  /** How many near names an unknown tool's problem offers. */
  static final int NEAREST = 3;

  private CallRepair() {}

  static ModelCall read(ToolExecutionRequest asked, RemoteTools tools) {
    String name = asked.name() == null ? "" : asked.name().strip();
    Optional<ToolDefinition> found = tools.resolve(name);
    if (found.isEmpty()) {
      String problem =
          (name.isEmpty() ? "The call named no tool." : "There is no tool named \"" + name + "\".")
              + " The nearest: " + String.join(", ", tools.nearest(name, NEAREST))
              + ". Call one of them by its exact name.";
      return new ModelCall.Mistake(
          asked,
          name.isEmpty() ? "(no tool named)" : shown(name),
          problem,
          "The assistant asked for a tool that does not exist (\"" + shown(name)
              + "\"); it was told the nearest names.",
          "no tool has that name");
    }
    ToolDefinition tool = found.get();
    String modelName = tools.modelName(tool.name());
    try {
      JsonNode args = arguments(asked.arguments(), tool, tools);
      ToolExecutionRequest request = ToolExecutionRequest.builder()
          .id(asked.id())
          .name(modelName)
          .arguments(Json.write(args))
          .build();
      return new ModelCall.Ready(request, tool, args);
    } catch (Unreadable e) {
      ToolExecutionRequest request = ToolExecutionRequest.builder()
          .id(asked.id())
          .name(modelName)
          .arguments(asked.arguments())
          .build();
      return new ModelCall.Mistake(
          request,
          tool.name(),
          "The arguments for " + modelName + " " + e.getMessage()
              + ". Send them as one JSON object, for example " + example(tool) + ".",
          "The assistant's call to " + tool.name()
              + " had arguments Steward could not read; it was asked to send them again.",
          "its arguments " + e.forLog());
    }
  }

  private static JsonNode arguments(@Nullable String raw, ToolDefinition tool, RemoteTools tools)
      throws Unreadable {
    String text = raw == null ? "" : unfenced(raw.strip());
    if (text.isEmpty()) return Json.object();
    JsonNode node = parse(text);
    if (node.isTextual()) {
      // The object written as a string: {"arguments": "{\"path\": \"a.txt\"}"}.
      String inner = unfenced(node.asText().strip());
      node = inner.isEmpty() ? Json.object() : parse(inner);
    }
    if (node.isNull()) return Json.object();
    if (!node.isObject())
      throw new Unreadable("must be a JSON object of named values, not " + kind(node));
    JsonNode wrapped = unwrapped(node, tool, tools);
    return wrapped == null ? node : wrapped;
  }

  /** {@code {"name": <this tool>, "arguments": {...}}} sent as the arguments themselves. */
  private static @Nullable JsonNode unwrapped(
      JsonNode node, ToolDefinition tool, RemoteTools tools) {
    if (node.size() != 2 || !node.path("name").isTextual()) return null;
    JsonNode inner = node.has("arguments") ? node.get("arguments") : node.get("parameters");
    if (inner == null || !inner.isObject()) return null;
    boolean same = tools
        .resolve(node.get("name").asText())
        .map(t -> t.name().equals(tool.name()))
        .orElse(false);
    return same && !tool.argsSchema().path("properties").has("name") ? inner : null;
  }

  private static JsonNode parse(String text) throws Unreadable {
    try {
      return Json.parse(text);
    } catch (IOException e) {
      throw new Unreadable(
          "were not valid JSON (" + firstLine(e.getMessage()) + ")", "were not valid JSON");
    }
  }

  /** The text inside a Markdown code fence, or the text itself when it is not fenced. */
  static String unfenced(String text) {
    if (!text.startsWith("```") || !text.endsWith("```") || text.length() < 6) return text;
    String body = text.substring(3, text.length() - 3);
    int newline = body.indexOf('\n');
    if (newline >= 0 && body.substring(0, newline).strip().matches("[A-Za-z_]*"))
      body = body.substring(newline + 1);
    return body.strip();
  }

  /**
   * A call's arguments as a model should write them: its required values, each a placeholder of
   * its type ({@code {"path": "…"}}).
   */
  static String example(ToolDefinition tool) {
    JsonNode schema = tool.argsSchema();
    ObjectNode example = Json.object();
    for (JsonNode required : schema.path("required")) {
      String name = required.asText();
      JsonNode type = schema.path("properties").path(name).path("type");
      switch (type.asText("string")) {
        case "integer", "number" -> example.put(name, 0);
        case "boolean" -> example.put(name, false);
        case "array" -> example.putArray(name);
        case "object" -> example.putObject(name);
        default -> example.put(name, "…");
      }
    }
    return Json.write(example);
  }

  private static String kind(JsonNode node) {
    if (node.isArray()) return "an array";
    if (node.isNumber()) return "a number";
    if (node.isBoolean()) return "true or false";
    return "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String firstLine(@Nullable String message) {
    if (message == null) return "unreadable";
    int cut = message.indexOf('\n');
    String line = cut < 0 ? message : message.substring(0, cut);
    int source = line.indexOf(" at [Source");
    return (source < 0 ? line : line.substring(0, source)).strip();
  }

  /**
   * Why a call's arguments could not be read: for the model, with the parser's words (which
   * quote the text it stopped at); for the audit log, without them ({@link #forLog}) — the text
   * may be a password the model left unquoted, and the log keeps arguments only as a hash.
   */
  private static final class Unreadable extends Exception {
    private final String forLog;

    Unreadable(String message, String forLog) {
      super(message, null, false, false);
      this.forLog = forLog;
    }

    Unreadable(String message) {
      this(message, message);
    }

    String forLog() {
      return forLog;
    }
  }

  /**
   * A name the model chose, as a notice of Steward's shows it: on one line, hidden characters
   * written out, and short — it must not read as Steward's own words.
   */
  static String shown(String name) {
    String one = dev.steward.protocol.util.ShownText.escaped(name);
    return one.length() > 64 ? one.substring(0, 64) + "…" : one;
  }
}
