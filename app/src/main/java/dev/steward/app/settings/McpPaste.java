package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the MCP servers a user pastes from another client's configuration: Claude Desktop's and
 * Cursor's {@code {"mcpServers": {...}}}, VS Code's {@code {"servers": {...}}} (its {@code type}
 * is implied by {@code command} or {@code url}), Steward's own {@code mcp_servers}, or the bare
 * map of names to entries. A key Steward does not know is an error that names it, never dropped.
 */
final class McpPaste {

  private McpPaste() {}

  static Map<String, PolicyDocument.McpServer> read(String text) {
    JsonNode root;
    try {
      root = Json.parse(text.strip());
    } catch (IOException e) {
      throw new IllegalArgumentException("That is not JSON: " + firstLine(e.getMessage()));
    }
    if (!root.isObject() || root.isEmpty())
      throw new IllegalArgumentException(
          "Paste a JSON object of servers, e.g. {\"mcpServers\": {…}}");
    JsonNode servers = root;
    for (String key : List.of("mcpServers", "mcp_servers", "servers")) {
      if (root.has(key)) servers = root.get(key);
    }
    if (!servers.isObject() || servers.isEmpty())
      throw new IllegalArgumentException("There are no servers in what you pasted");
    Map<String, PolicyDocument.McpServer> out = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    servers.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode entry = servers.get(name);
      if (!entry.isObject())
        throw new IllegalArgumentException("The server \"" + name + "\" is not a JSON object");
      ObjectNode copy = ((ObjectNode) entry).deepCopy();
      String type = copy.path("type").asText("");
      if (List.of("stdio", "http", "streamable-http", "streamableHttp").contains(type))
        copy.remove("type");
      try {
        out.put(name, Json.strictMapper().treeToValue(copy, PolicyDocument.McpServer.class));
      } catch (IOException | IllegalArgumentException e) {
        throw new IllegalArgumentException("The server \"" + name + "\": " + plain(e));
      }
    }
    return out;
  }

  /** A command line typed by hand, split as a shell would split words (no shell runs it). */
  static PolicyDocument.McpServer typed(String line) {
    String s = line.strip();
    if (s.startsWith("http://") || s.startsWith("https://")) return PolicyDocument.McpServer.url(s);
    List<String> words = words(s);
    if (words.isEmpty()) throw new IllegalArgumentException("Type the server's command or URL");
    return PolicyDocument.McpServer.command(words.get(0), words.subList(1, words.size()), Map.of());
  }

  static List<String> words(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == quote) quote = 0;
        else if (c == '\\' && quote == '"' && i + 1 < s.length()) word.append(s.charAt(++i));
        else word.append(c);
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < s.length()) {
        word.append(s.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) out.add(word.toString());
        word.setLength(0);
        inWord = false;
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) throw new IllegalArgumentException("A quote is not closed");
    if (inWord) out.add(word.toString());
    return out;
  }

  private static String plain(Exception e) {
    if (e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u)
      return "Steward does not know the key \"" + u.getPropertyName() + "\"";
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    String m = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return firstLine(m);
  }

  private static String firstLine(@org.jspecify.annotations.Nullable String m) {
    if (m == null) return "";
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
