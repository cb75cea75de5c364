package dev.steward.app.agent;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calls a model wrote into its text instead of the tool-call field, in the shapes small models and
 * their chat templates produce: Hermes and Qwen {@code <tool_call>} tags, Mistral's {@code
 * [TOOL_CALLS]}, Llama's {@code <|python_tag|>} and {@code <function=name>}, a fenced JSON block, or
 * a whole answer that is nothing but a call. A tagged call is taken whatever it names (a wrong name
 * goes back to the model as a mistake); an untagged block is taken only when every name in it means
 * a tool, so an answer that merely shows some JSON stays an answer.
 */
final class TextCalls {

  /** The answer's text with the calls taken out, and the calls. */
  record Found(String text, List<ToolExecutionRequest> calls) {}

  private static final List<String> MARKERS =
      List.of("<tool_call>", "<function_call>", "[TOOL_CALLS]", "<|python_tag|>");
  private static final List<String> CLOSERS =
      List.of("</tool_call>", "</function_call>", "<|eom_id|>", "<|eot_id|>");
  private static final Pattern FUNCTION_TAG =
      Pattern.compile("<function=([A-Za-z0-9_.\\-]+)>(.*?)</function>", Pattern.DOTALL);
  private static final Pattern FENCE =
      Pattern.compile("```[A-Za-z_]*[ \\t]*\\n(.*?)\\n?```", Pattern.DOTALL);

  private TextCalls() {}

  /**
   * Whether a call the model wrote may be one it quotes: a tool it calls is named, as a tool's name
   * is written (dotted, or as the model is given it), in what the user gave it or a tool returned
   * (a pasted mail, a file, a page). A call the model makes of its own accord names a tool that is
   * only in its tool list; "send the mail" or "fetch the page" in a message names none.
   */
  static boolean named(
      List<ToolExecutionRequest> calls,
      List<dev.langchain4j.data.message.ChatMessage> history,
      RemoteTools tools) {
    List<Pattern> spellings = new ArrayList<>();
    for (ToolExecutionRequest call : calls) {
      if (call.name() == null || call.name().isBlank()) continue;
      List<String> names = new ArrayList<>(List.of(call.name()));
      tools.resolve(call.name()).ifPresent(d -> {
        names.add(d.name());
        names.add(tools.modelName(d.name()));
      });
      for (String name : names)
        spellings.add(Pattern.compile(
            "(?<![A-Za-z0-9_])" + Pattern.quote(name) + "(?![A-Za-z0-9_])",
            Pattern.CASE_INSENSITIVE));
    }
    if (spellings.isEmpty()) return false;
    for (dev.langchain4j.data.message.ChatMessage m : history) {
      String text = m instanceof dev.langchain4j.data.message.UserMessage u && u.hasSingleText()
          ? u.singleText()
          : m instanceof dev.langchain4j.data.message.ToolExecutionResultMessage r
                  && !Recall.named(String.valueOf(r.toolName()))
                  && !ToolShelf.named(String.valueOf(r.toolName()))
              ? r.text()
              : null;
      if (text == null) continue;
      for (Pattern spelled : spellings) if (spelled.matcher(text).find()) return true;
    }
    return false;
  }

  static Optional<Found> find(String text, RemoteTools tools) {
    List<ToolExecutionRequest> calls = new ArrayList<>();
    String rest = tagged(text, calls);
    rest = functionTags(rest, calls);
    if (calls.isEmpty()) rest = fenced(rest, calls, tools);
    if (calls.isEmpty()) {
      List<ToolExecutionRequest> whole = shapes(rest.strip(), tools);
      if (!whole.isEmpty()) {
        calls.addAll(whole);
        rest = "";
      }
    }
    return calls.isEmpty() ? Optional.empty() : Optional.of(new Found(rest.strip(), calls));
  }

  private static String tagged(String text, List<ToolExecutionRequest> calls) {
    StringBuilder rest = new StringBuilder();
    int at = 0;
    while (true) {
      int start = -1;
      String marker = "";
      for (String m : MARKERS) {
        int i = text.indexOf(m, at);
        if (i >= 0 && (start < 0 || i < start)) {
          start = i;
          marker = m;
        }
      }
      if (start < 0) break;
      rest.append(text, at, start);
      int valueStart = start + marker.length();
      try (JsonParser parser = Json.mapper().createParser(text.substring(valueStart))) {
        JsonNode value = Json.mapper().readTree(parser);
        List<ToolExecutionRequest> found = value == null ? List.of() : calls(value, true);
        if (found.isEmpty()) throw new IOException("not a call");
        calls.addAll(found);
        at = skipClosers(text, valueStart + (int) parser.currentLocation().getCharOffset());
      } catch (IOException | RuntimeException e) {
        rest.append(marker);
        at = valueStart;
      }
    }
    rest.append(text.substring(at));
    return rest.toString();
  }

  private static int skipClosers(String text, int at) {
    boolean more = true;
    while (more) {
      more = false;
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
      for (String closer : CLOSERS) {
        if (text.startsWith(closer, at)) {
          at += closer.length();
          more = true;
        }
      }
    }
    return at;
  }

  private static String functionTags(String text, List<ToolExecutionRequest> calls) {
    Matcher m = FUNCTION_TAG.matcher(text);
    StringBuilder rest = new StringBuilder();
    while (m.find()) {
      calls.add(request(m.group(1), m.group(2).strip()));
      m.appendReplacement(rest, "");
    }
    m.appendTail(rest);
    return rest.toString();
  }

  private static String fenced(String text, List<ToolExecutionRequest> calls, RemoteTools tools) {
    Matcher m = FENCE.matcher(text);
    StringBuilder rest = new StringBuilder();
    while (m.find()) {
      List<ToolExecutionRequest> found = shapes(m.group(1).strip(), tools);
      calls.addAll(found);
      m.appendReplacement(rest, found.isEmpty() ? Matcher.quoteReplacement(m.group()) : "");
    }
    m.appendTail(rest);
    return rest.toString();
  }

  /** The calls a block of text is, when it is nothing else and every name means a tool. */
  private static List<ToolExecutionRequest> shapes(String block, RemoteTools tools) {
    if (!(block.startsWith("{") || block.startsWith("["))) return List.of();
    JsonNode value;
    try {
      value = Json.parse(block);
    } catch (IOException e) {
      return List.of();
    }
    List<ToolExecutionRequest> found = calls(value, false);
    boolean allKnown = found.stream().allMatch(r -> tools.resolve(r.name()).isPresent());
    return allKnown ? found : List.of();
  }

  /**
   * The calls a JSON value holds: {@code {name, arguments|parameters}}, OpenAI's {@code {function:
   * {...}}}, or an array of those; empty unless every element is one. A tagged call may leave its
   * arguments out.
   */
  private static List<ToolExecutionRequest> calls(JsonNode value, boolean tagged) {
    List<JsonNode> elements = new ArrayList<>();
    if (value.isArray()) value.forEach(elements::add);
    else elements.add(value);
    List<ToolExecutionRequest> found = new ArrayList<>();
    for (JsonNode element : elements) {
      JsonNode call = element.path("function").isObject() ? element.get("function") : element;
      if (!call.isObject() || !call.path("name").isTextual()) return List.of();
      JsonNode args = call.has("arguments") ? call.get("arguments") : call.get("parameters");
      if (args == null && !tagged) return List.of();
      String raw = args == null ? "{}" : args.isTextual() ? args.asText() : Json.write(args);
      found.add(request(call.get("name").asText(), raw));
    }
    return found;
  }

  private static ToolExecutionRequest request(String name, String arguments) {
    String id = "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return ToolExecutionRequest.builder().id(id).name(name).arguments(arguments).build();
  }
}
