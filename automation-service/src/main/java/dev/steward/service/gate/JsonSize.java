package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.WireValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
          size += 2 + WireValue.stringBound(f.getKey());
          todo.push(f.getValue());
        }
      } else if (n.isArray()) {
        size += 2;
        for (JsonNode child : n) {
          size += 1;
          todo.push(child);
        }
      } else if (n.isTextual()) {
        size += WireValue.stringBound(n.textValue());
      } else if (n.isPojo()) {
        size += pojo(((POJONode) n).getPojo());
      } else {
        size += 24;
      }
    }
    return size;
  }

  private static long pojo(Object value) {
    if (value instanceof WireValue) return ((WireValue) value).maxBytes();
    // Anything else is measured the slow way: written out and counted.
    long[] count = {0};
    OutputStream counter = new OutputStream() {
      @Override
      public void write(int b) {
        count[0]++;
      }

      @Override
      public void write(byte[] b, int off, int len) {
        count[0] += len;
      }
    };
    try {
      Json.mapper().writeValue(counter, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return count[0];
  }
}
