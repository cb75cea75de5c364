package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * An upper-bound estimate of a value's serialised size (UTF-8 bytes, every char counted as up to
 * three bytes plus quotes and separators), without serialising it: the gate checks every result
 * against the output limit, and a full extra serialisation would cost more than the check is worth.
 */
final class JsonSize {

  private JsonSize() {}

  static long estimate(JsonNode root) {
    long size = 0;
    ArrayDeque<JsonNode> todo = new ArrayDeque<>();
    todo.push(root);
    while (!todo.isEmpty()) {
      JsonNode n = todo.pop();
      if (n.isObject()) {
        size += 2;
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> f = it.next();
          size += 4 + 3L * f.getKey().length();
          todo.push(f.getValue());
        }
      } else if (n.isArray()) {
        size += 2;
        for (JsonNode child : n) {
          size += 1;
          todo.push(child);
        }
      } else if (n.isTextual()) {
        size += 2 + 3L * n.textValue().length();
      } else {
        size += 24;
      }
    }
    return size;
  }
}
