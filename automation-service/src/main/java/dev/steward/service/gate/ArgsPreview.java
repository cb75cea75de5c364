package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.service.tools.Tool;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The redacted argument preview the audit log keeps: sensitive arguments (file contents, clipboard
 * text) become their size and hash; long strings are cut; control characters are escaped later by
 * the log itself.
 */
final class ArgsPreview {

  private static final int MAX_STRING = 200;

  private ArgsPreview() {}

  static String of(Tool tool, JsonNode args) {
    return of(tool.sensitiveArgs(), false, args);
  }

  /** For calls of unknown tools: no argument is known to be harmless, so every string is hashed. */
  static String redactAll(JsonNode args) {
    return of(java.util.Set.of(), true, args);
  }

  private static String of(java.util.Set<String> sensitive, boolean all, JsonNode args) {
    if (!args.isObject())
      return all
          ? "<" + args.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ">"
          : truncate(args.toString());
    ObjectNode copy = args.deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = copy.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode v = field.getValue();
      if ((all || sensitive.contains(field.getKey())) && v.isTextual()) {
        byte[] bytes = v.textValue().getBytes(StandardCharsets.UTF_8);
        field.setValue(copy.textNode("<" + bytes.length + " bytes sha256:"
            + CanonicalJson.sha256Hex(bytes).substring(0, 16) + ">"));
      } else if (v.isTextual() && v.textValue().length() > MAX_STRING) {
        field.setValue(copy.textNode(
            v.textValue().substring(0, MAX_STRING) + "…(" + v.textValue().length() + " chars)"));
      }
    }
    return truncate(copy.toString());
  }

  private static String truncate(String s) {
    return s.length() > 1500 ? s.substring(0, 1500) + "…" : s;
  }
}
