package dev.steward.protocol.util;

/**
 * Text from outside (a file's name, a mail's header, a model's summary) as a line of the window
 * may show it: no control character that breaks the line, and no bidirectional control, with which
 * a name could show its text reversed ("gpj.exe" as "exe.jpg").
 */
public final class ShownText {

  private ShownText() {}

  /** The marks and embeddings, overrides and isolates of Unicode's bidirectional algorithm. */
  public static boolean isBidiControl(char c) {
    return c == '\u061C'
        || c == '\u200E'
        || c == '\u200F'
        || (c >= '\u202A' && c <= '\u202E')
        || (c >= '\u2066' && c <= '\u2069');
  }

  /**
   * Whether {@code c} may not stand as itself in one line of the window: controls, line
   * separators, and what draws nothing — format characters (zero-width spaces and joiners, the
   * byte-order mark, bidirectional controls), variation selectors, and the first half of every
   * character of plane 14 (tags and more variation selectors), which can carry text unseen.
   */
  public static boolean isHidden(char c) {
    return Character.isISOControl(c)
        || c == '\u2028'
        || c == '\u2029'
        || isBidiControl(c)
        || Character.getType(c) == Character.FORMAT
        || (c >= '\uFE00' && c <= '\uFE0F')
        || c == '\uDB40';
  }

  /**
   * {@code s} with each character that may not stand as itself written as {@code \}{@code uXXXX}:
   * for a name the user must see exactly, where a dropped character would pass unnoticed.
   */
  public static String escaped(String s) {
    int i = 0;
    while (i < s.length() && !isHidden(s.charAt(i))) i++;
    if (i == s.length()) return s;
    StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isHidden(c)) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.toString();
  }

  /**
   * {@link #escaped}, but line breaks and tabs stand: for text shown as lines (a diff, a program),
   * where a bidirectional control could otherwise show code or text in an order it does not run.
   */
  public static String escapedKeepingLines(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\n' && c != '\t' && isHidden(c)) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.toString();
  }

  /** {@code s} without the characters that may not stand as themselves: for prose. */
  public static String dropped(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isHidden(c)) b.append(c);
    }
    return b.toString();
  }
}
