package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A table of secrets kept as one value of {@code config/secrets.json}: a JSON object of names
 * (an address, a server) → key → text. Reading never quotes the stored text in an error: it holds
 * the values.
 */
public final class SecretTable {

  private SecretTable() {}

  /** Puts a table back as it was before a write (when what the write was for failed). */
  @FunctionalInterface
  public interface Undo {
    void run() throws IOException;
  }

  /** The table as stored; empty when nothing is; an {@link IOException} when it is not a table. */
  public static ObjectNode read(PackSecrets secrets, String section, String key)
      throws IOException {
    String text = secrets.get(section, key).orElse(null);
    if (text == null || text.isBlank()) return Json.object();
    JsonNode root;
    try {
      root = Json.parse(text);
    } catch (IOException | RuntimeException e) {
      // the parser's message quotes the text, which holds the values: it is not passed on
      throw new IOException(section + "." + key + " in config/secrets.json is not JSON");
    }
    if (!(root instanceof ObjectNode o)) {
      throw new IOException(section + "." + key + " in config/secrets.json is not a JSON object");
    }
    return o;
  }

  /** Keeps {@code table} (removed when empty) in one write of the file. */
  public static void write(
      PackSecrets secrets, String section, String key, Map<String, Map<String, String>> table)
      throws IOException {
    secrets.set(section, key, text(table));
  }

  public static @Nullable String text(Map<String, Map<String, String>> table) {
    ObjectNode root = Json.object();
    table.forEach((name, values) -> {
      if (!values.isEmpty()) {
        ObjectNode o = root.putObject(name);
        values.forEach(o::put);
      }
    });
    return root.isEmpty() ? null : root.toString();
  }

  /** The text values of one row; others are left out (and counted by the caller, if it cares). */
  public static Map<String, String> row(JsonNode row) {
    Map<String, String> out = new LinkedHashMap<>();
    row.fields().forEachRemaining(e -> {
      if (e.getValue().isTextual()) out.put(e.getKey(), e.getValue().asText());
    });
    return out;
  }
}
