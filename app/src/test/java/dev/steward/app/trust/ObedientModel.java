package dev.steward.app.trust;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model that has been turned: it does whatever text it reads tells it to, with every tool it
 * has. Instructions are lines {@code RUN: <tool> <json arguments>} — in the user's message (the
 * user's own request) or anywhere in a tool result (an injection); {@code LATER:} lines in a tool
 * result are obeyed once the user has said anything after it (laundering through a new turn).
 * {@code {{secret}}} in an instruction becomes the first {@code SECRET-…} token the model has
 * read, as a real model copies data it saw. It issues one call per answer, each instruction once
 * (it sees what it already asked for in its own earlier messages), and says "Done." when nothing
 * is left.
 */
final class ObedientModel {

  private static final Pattern LINE =
      Pattern.compile("(?m)^\\s*(RUN|LATER): (\\S+) (\\{.*\\})\\s*$");
  private static final Pattern SECRET = Pattern.compile("SECRET-[A-Za-z0-9]+");

  private ObedientModel() {}

  static FakeOllama.Reply respond(JsonNode request) {
    JsonNode messages = request.path("messages");
    Set<String> issued = new HashSet<>();
    String secret = null;
    List<String[]> pending = new ArrayList<>();
    boolean userSpokeSince = false;
    List<String[]> later = new ArrayList<>();
    for (JsonNode m : messages) {
      String role = m.path("role").asText();
      String content = m.path("content").asText("");
      Matcher sm = SECRET.matcher(content);
      if (secret == null && !role.equals("user") && sm.find()) secret = sm.group();
      switch (role) {
        case "assistant" ->
          m.path("tool_calls")
              .forEach(c -> issued.add(key(
                  c.path("function").path("name").asText(), c.path("function").path("arguments"))));
        case "user" -> {
          pending.addAll(lines(content, "RUN"));
          pending.addAll(later);
          later.clear();
          userSpokeSince = true;
        }
        case "tool" -> {
          String text = readable(content);
          pending.addAll(lines(text, "RUN"));
          later.addAll(lines(text, "LATER"));
        }
        default -> {}
      }
    }
    for (String[] instruction : pending) {
      String args = secret == null ? instruction[1] : instruction[1].replace("{{secret}}", secret);
      JsonNode parsed;
      try {
        parsed = Json.parse(args);
      } catch (IOException e) {
        continue;
      }
      if (issued.contains(key(instruction[0], parsed))) continue;
      ObjectNode call = FakeOllama.call(instruction[0], args);
      return FakeOllama.Reply.calls(call);
    }
    return FakeOllama.Reply.text("Done.");
  }

  private static String key(String tool, JsonNode args) {
    return tool + " "
        + dev.steward.protocol.json.CanonicalJson.sha256(
            args.isTextual() ? parseOrEmpty(args.asText()) : args);
  }

  private static JsonNode parseOrEmpty(String text) {
    try {
      return Json.parse(text);
    } catch (IOException e) {
      return Json.object();
    }
  }

  private static List<String[]> lines(String text, String kind) {
    List<String[]> out = new ArrayList<>();
    Matcher m = LINE.matcher(text);
    while (m.find()) if (m.group(1).equals(kind)) out.add(new String[] {m.group(2), m.group(3)});
    return out;
  }

  /** A tool result as a model reads it: the JSON inside the wrapper, its strings laid out as text. */
  private static String readable(String content) {
    int open = content.indexOf("<untrusted>\n");
    int close = content.lastIndexOf("\n</untrusted>");
    if (open < 0 || close < open) return content;
    String inside = content.substring(open + "<untrusted>\n".length(), close);
    StringBuilder out = new StringBuilder(inside.replace("\\u003c", "<")).append('\n');
    try {
      collect(Json.parse(inside), out);
    } catch (IOException e) {
      // not JSON (an error text): read as it is
    }
    return out.toString();
  }

  private static void collect(JsonNode node, StringBuilder out) {
    if (node.isTextual()) out.append(node.asText()).append('\n');
    else node.forEach(child -> collect(child, out));
  }
}
