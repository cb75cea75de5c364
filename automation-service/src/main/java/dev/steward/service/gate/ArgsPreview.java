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
 * text) become their size and hash; long strings are cut, except the addresses of a call that
 * sends, which are kept whole up to {@link #MAX_SENT} (what left the machine is what a user looking
 * back needs to read, not its hash); control characters are escaped later by the log itself.
 */
final class ArgsPreview {

  private static final int MAX_STRING = 200;

  /** An address a sending call used, kept up to this many characters. */
  static final int MAX_SENT = 1_800;

  /** The whole preview; with a sent address, up to what an audit row keeps of one. */
  private static final int MAX_PREVIEW = 1_500;

  private static final int MAX_PREVIEW_SENT = 1_990;

  private ArgsPreview() {}

  static String of(Tool tool, JsonNode args) {
    java.util.Set<String> sent = new java.util.HashSet<>();
    if (tool.sends(args)) {
      for (dev.steward.service.tools.HostUse h : tool.hosts(args)) {
        // A top-level argument ("/url"): where the address stands in the preview.
        if (h.pointer().lastIndexOf('/') == 0) sent.add(h.pointer().substring(1));
      }
    }
    return of(tool.sensitiveArgs(), false, args, sent);
  }

  /** For calls of unknown tools: no argument is known to be harmless, so every string is hashed. */
  static String redactAll(JsonNode args) {
    return of(java.util.Set.of(), true, args, java.util.Set.of());
  }

  private static String of(
      java.util.Set<String> sensitive, boolean all, JsonNode args, java.util.Set<String> sent) {
    if (!args.isObject())
      return all
          ? "<" + args.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ">"
          : truncate(args.toString(), MAX_PREVIEW);
    ObjectNode copy = args.deepCopy();
    for (Iterator<Map.Entry<String, JsonNode>> it = copy.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode v = field.getValue();
      if ((all || sensitive.contains(field.getKey())) && v.isTextual()) {
        byte[] bytes = v.textValue().getBytes(StandardCharsets.UTF_8);
        field.setValue(copy.textNode("<" + bytes.length + " bytes sha256:"
            + CanonicalJson.sha256Hex(bytes).substring(0, 16) + ">"));
      } else {
        int max = sent.contains(field.getKey()) ? MAX_SENT : MAX_STRING;
        if (v.isTextual() && v.textValue().length() > max)
          field.setValue(copy.textNode(
              v.textValue().substring(0, max) + "…(" + v.textValue().length() + " chars)"));
      }
    }
    return truncate(copy.toString(), sent.isEmpty() ? MAX_PREVIEW : MAX_PREVIEW_SENT);
  }

  private static String truncate(String s, int max) {
    return s.length() > max ? s.substring(0, max) + "…" : s;
  }
}
