package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.audit.WholeArgs;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.service.audit.Text;
import dev.steward.service.tools.Tool;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The redacted argument preview the audit log keeps: sensitive arguments (file contents, clipboard
 * text) become their size and hash; long strings are cut, except the addresses of a call that
 * sends, which are kept whole up to {@link #MAX_SENT} (what left the machine is what a user looking
 * back needs to read, not its hash); control characters are escaped later by the log itself.
 *
 * <p>Nothing a call was given need be hidden by the cut: a cut preview leaves room for a mark, and
 * carries the whole redacted arguments, which the gate keeps beside the log before the row is
 * written, the preview then ending with their hash ({@link WholeArgs}), so that a program, a
 * message or a query can be read back whole. The preview is measured as the log stores it, control
 * characters escaped ({@link Text#clean}), so that the log's own bound never cuts the mark off.
 */
final class ArgsPreview {

  private static final int MAX_STRING = 200;

  /** An address a sending call used, kept up to this many characters. */
  static final int MAX_SENT = 1_800;

  /** The whole preview; with a sent address, up to what an audit row keeps of one. */
  private static final int MAX_PREVIEW = 1_500;

  private static final int MAX_PREVIEW_SENT = 1_990;

  /** Room kept at the end of a cut preview for what is said about its whole. */
  private static final int MARK_ROOM = 120;

  /**
   * What the row shows ({@code cut}, control characters escaped), and — when that had to be cut —
   * the whole redacted arguments.
   */
  record Preview(String cut, @Nullable String whole) {

    /** The row's preview once the whole is kept under {@code sha256}: bound by the chain. */
    String kept(String sha256) {
      return whole == null ? cut : cut + WholeArgs.marker(whole.length(), sha256);
    }

    /** The row's preview when the whole is not kept, saying so (it binds nothing). */
    String notKept(String why) {
      return whole == null
          ? cut
          : cut + "[whole not kept: " + whole.length() + " chars, " + why + "]";
    }
  }

  private ArgsPreview() {}

  /** The preview of a call of {@code tool}; of a call of no known tool, every string hashed. */
  static Preview of(@Nullable Tool tool, JsonNode args) {
    if (tool == null) return redactAll(args);
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
  private static Preview redactAll(JsonNode args) {
    return of(java.util.Set.of(), true, args, java.util.Set.of());
  }

  private static Preview of(
      java.util.Set<String> sensitive, boolean all, JsonNode args, java.util.Set<String> sent) {
    if (!args.isObject()) {
      if (all)
        return new Preview(
            "<" + args.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ">", null);
      String text = args.toString();
      return cutAt(text, text, MAX_PREVIEW);
    }
    ObjectNode redacted = args.deepCopy();
    ObjectNode shown = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = redacted.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode v = field.getValue();
      if ((all || sensitive.contains(field.getKey())) && v.isTextual()) {
        byte[] bytes = v.textValue().getBytes(StandardCharsets.UTF_8);
        field.setValue(redacted.textNode("<" + bytes.length + " bytes sha256:"
            + CanonicalJson.sha256Hex(bytes).substring(0, 16) + ">"));
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = redacted.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      JsonNode v = field.getValue();
      int max = sent.contains(field.getKey()) ? MAX_SENT : MAX_STRING;
      if (v.isTextual() && v.textValue().length() > max) {
        if (shown == null) shown = redacted.deepCopy();
        shown.put(
            field.getKey(), cutAt(v.textValue(), max) + "…(" + v.textValue().length() + " chars)");
      }
    }
    String whole = redacted.toString();
    return cutAt(
        shown == null ? whole : shown.toString(),
        whole,
        sent.isEmpty() ? MAX_PREVIEW : MAX_PREVIEW_SENT);
  }

  /**
   * {@code shown} within {@code max} characters; if it is not {@code whole}, it ends with the
   * whole's hash, within the same bound.
   */
  private static Preview cutAt(String shown, String whole, int max) {
    String stored = java.util.Objects.requireNonNull(Text.clean(shown, Integer.MAX_VALUE));
    if (shown.equals(whole) && stored.length() <= max) return new Preview(stored, null);
    int room = max - MARK_ROOM;
    String cut = stored.length() <= room ? stored : cutAt(stored, room - 1) + "…";
    return new Preview(cut, whole);
  }

  /** The first {@code n} characters, a pair of surrogates never split. */
  private static String cutAt(String s, int n) {
    return s.substring(0, Character.isHighSurrogate(s.charAt(n - 1)) ? n - 1 : n);
  }
}
