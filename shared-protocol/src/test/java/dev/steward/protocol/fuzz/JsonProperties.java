package dev.steward.protocol.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.MessageCodec;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The properties of the parsers a peer's bytes reach first. Canonical JSON (the arguments' hash a
 * token binds): two encodings of one value hash alike — key order, white space, number spelling —
 * and two different values never do. The JSON-RPC codec: any text gets an answer, never an
 * exception.
 */
public final class JsonProperties {

  private JsonProperties() {}

  /** A random JSON value whose numbers are exactly representable (so every spelling parses alike). */
  public static JsonNode value(Draws d, int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    int kind = d.pick(depth <= 0 ? 5 : 7);
    switch (kind) {
      case 0:
        return f.nullNode();
      case 1:
        return f.booleanNode(d.bool());
      case 2:
        return f.numberNode(d.number(-(1L << 50), 1L << 50));
      case 3:
        return f.numberNode(d.number(-100_000, 100_000) / 8.0);
      case 4:
        return f.textNode(d.text(12));
      case 5: {
        ArrayNode a = f.arrayNode();
        for (int i = d.pick(4); i > 0; i--) a.add(value(d, depth - 1));
        return a;
      }
      default: {
        ObjectNode o = f.objectNode();
        for (int i = d.pick(4); i > 0; i--) o.set(d.text(6), value(d, depth - 1));
        return o;
      }
    }
  }

  /** Another spelling of {@code node}: keys reordered, white space added, numbers written otherwise. */
  public static String spelling(JsonNode node, Draws d) {
    StringBuilder b = new StringBuilder();
    write(node, d, b);
    return b.toString();
  }

  private static void write(JsonNode node, Draws d, StringBuilder b) {
    if (d.bool()) b.append(d.bool() ? " " : "\n\t");
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      node.fields().forEachRemaining(fields::add);
      for (int i = fields.size() - 1; i > 0; i--)
        java.util.Collections.swap(fields, i, d.pick(i + 1));
      b.append('{');
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) b.append(',');
        b.append(Json.write(fields.get(i).getKey())).append(d.bool() ? " : " : ":");
        write(fields.get(i).getValue(), d, b);
      }
      b.append('}');
    } else if (node.isArray()) {
      b.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) b.append(", ");
        write(node.get(i), d, b);
      }
      b.append(']');
    } else if (node.isNumber()) {
      BigDecimal v = node.decimalValue();
      switch (d.pick(3)) {
        case 0 -> b.append(v.toPlainString());
        case 1 -> b.append(v.stripTrailingZeros().toString().replace("E+", "e"));
        default -> b.append(v.toPlainString()).append(v.scale() <= 0 ? ".0" : "0");
      }
    } else if (node.isTextual()) {
      // Escape characters a spelling may escape or not.
      String s = Json.write(node.asText());
      b.append(d.bool() ? s : s.replace("/", "\\/").replace("a", "\\u0061"));
    } else {
      b.append(node.toString());
    }
  }

  /** Whether two parsed values are the same value (numbers compared as decimals). */
  public static boolean same(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
    if (a.getNodeType() != b.getNodeType()) return false;
    if (a.isObject()) {
      if (a.size() != b.size()) return false;
      for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!b.has(e.getKey()) || !same(e.getValue(), b.get(e.getKey()))) return false;
      }
      return true;
    }
    if (a.isArray()) {
      if (a.size() != b.size()) return false;
      for (int i = 0; i < a.size(); i++) if (!same(a.get(i), b.get(i))) return false;
      return true;
    }
    return a.equals(b);
  }

  /** Two spellings of one value hash alike; a different value hashes otherwise. */
  public static void canonicalHash(Draws d) throws IOException {
    JsonNode v = value(d, 4);
    JsonNode first = Json.parse(spelling(v, d));
    JsonNode second = Json.parse(spelling(v, d));
    if (!CanonicalJson.sha256(first).equals(CanonicalJson.sha256(second))) {
      throw new AssertionError("one value, two hashes: " + first + " / " + second);
    }
    JsonNode other = value(d, 4);
    boolean sameValue = same(v, other);
    boolean sameHash = CanonicalJson.sha256(v).equals(CanonicalJson.sha256(other));
    if (sameValue != sameHash)
      throw new AssertionError(
          (sameValue ? "one value, two hashes: " : "two values, one hash: ") + v + " / " + other);
  }

  /** Any text gets a frame (valid messages or error responses); nothing throws. */
  public static void codecAnswersEverything(String text) {
    MessageCodec.Frame frame = MessageCodec.parse(text);
    if (frame == null || frame.items().isEmpty() && !frame.batch())
      throw new AssertionError("no answer for " + text);
    for (MessageCodec.Inbound item : frame.items()) {
      if (item instanceof MessageCodec.Valid v) Json.write(v.message());
      else if (item instanceof MessageCodec.Invalid i) Json.write(i.response());
    }
  }
}
