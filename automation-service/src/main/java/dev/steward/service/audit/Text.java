package dev.steward.service.audit;

import org.jspecify.annotations.Nullable;

/**
 * Makes untrusted text safe to store and show: control characters escaped, length bounded. It is
 * idempotent — cleaning clean text changes nothing — because rows are re-read and re-hashed.
 */
public final class Text {

  private Text() {}

  public static @Nullable String clean(@Nullable String text, int max) {
    if (text == null) return null;
    StringBuilder out = new StringBuilder(Math.min(text.length(), max) + 16);
    int i = 0;
    for (; i < text.length() && out.length() <= max; i++) {
      char c = text.charAt(i);
      if (c == '\n') out.append("\\n");
      else if (c == '\r') out.append("\\r");
      else if (c == '\t') out.append("\\t");
      else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\u%04x", (int) c));
      } else if (Character.isSurrogate(c) && !validSurrogate(text, i)) {
        out.append('\ufffd');
      } else {
        out.append(c);
      }
    }
    if (out.length() <= max && i == text.length()) {
      return out.toString();
    }
    String suffix = "…[+" + (text.length() - i) + " more]";
    if (suffix.length() >= max) return "…";
    int keep = Math.max(0, max - suffix.length() - 1);
    out.setLength(Math.min(keep, out.length()));
    if (out.length() > 0 && Character.isHighSurrogate(out.charAt(out.length() - 1))) {
      out.setLength(out.length() - 1);
    }
    return out.append(suffix).toString();
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c))
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
