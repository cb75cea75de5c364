package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * An upper bound of a value's serialised size in UTF-8 bytes (escapes counted at their longest),
 * without serialising it: the gate checks every result against the output limit, and a full extra
 * serialisation would cost more than the check is worth.
 */
final class JsonSize {

  private JsonSize() {}

  private static long utf8(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\') n += 6;
      else if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else n += 3;
    }
    return n;
  }

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
          size += 4 + utf8(f.getKey());
          todo.push(f.getValue());
        }
      } else if (n.isArray()) {
        size += 2;
        for (JsonNode child : n) {
          size += 1;
          todo.push(child);
        }
      } else if (n.isTextual()) {
        size += 2 + utf8(n.textValue());
      } else {
        size += 24;
      }
    }
    return size;
  }
}
