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
   * Whether the character at code point {@code cp} may not stand as itself in one line of the
   * window: controls, line separators, and what draws nothing or only blank — format characters
   * (zero-width spaces and joiners, the byte-order mark, bidirectional controls, also beyond the
   * first plane), Unicode's default-ignorable characters (variation selectors, fillers, plane 14's
   * tags), and letters that draw as blank (the Hangul fillers, the blank braille pattern), any of
   * which can carry text unseen.
   */
  public static boolean isHidden(int cp) {
    return Character.isISOControl(cp)
        || cp == 0x2028
        || cp == 0x2029
        || Character.getType(cp) == Character.FORMAT
        || isDefaultIgnorable(cp)
        || cp == 0x2800;
  }

  /** {@link #isHidden(int)} of one UTF-16 unit; a surrogate is judged with its pair by the rest. */
  public static boolean isHidden(char c) {
    return !Character.isSurrogate(c) && isHidden((int) c);
  }

  /** Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties), assigned or not. */
  private static boolean isDefaultIgnorable(int cp) {
    return cp == 0x00AD
        || cp == 0x034F
        || cp == 0x061C
        || (cp >= 0x115F && cp <= 0x1160)
        || (cp >= 0x17B4 && cp <= 0x17B5)
        || (cp >= 0x180B && cp <= 0x180F)
        || (cp >= 0x200B && cp <= 0x200F)
        || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2060 && cp <= 0x206F)
        || cp == 0x3164
        || (cp >= 0xFE00 && cp <= 0xFE0F)
        || cp == 0xFEFF
        || cp == 0xFFA0
        || (cp >= 0xFFF0 && cp <= 0xFFF8)
        || (cp >= 0x1BCA0 && cp <= 0x1BCA3)
        || (cp >= 0x1D173 && cp <= 0x1D17A)
        || (cp >= 0xE0000 && cp <= 0xE0FFF);
  }

  /**
   * {@code s} with each character that may not stand as itself written as {@code \}{@code uXXXX}
   * (both halves, beyond the first plane): for a name the user must see exactly, where a dropped
   * character would pass unnoticed.
   */
  public static String escaped(String s) {
    return escape(s, ShownText::isHidden);
  }

  /**
   * {@link #escaped}, but line breaks and tabs stand: for text shown as lines (a diff, a program),
   * where a bidirectional control could otherwise show code or text in an order it does not run.
   */
  public static String escapedKeepingLines(String s) {
    return escape(s, cp -> cp != '\n' && cp != '\t' && isHidden(cp));
  }

  /** {@code s} with each code point {@code hidden} says written as escaped UTF-16 halves. */
  private static String escape(String s, java.util.function.IntPredicate hidden) {
    int i = 0;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      if (hidden.test(cp)) break;
      i += Character.charCount(cp);
    }
    if (i == s.length()) return s;
    StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      if (hidden.test(cp)) {
        for (char c : Character.toChars(cp)) b.append(String.format("\\u%04x", (int) c));
      } else {
        b.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return b.toString();
  }

  /** {@code s} without the characters that may not stand as themselves: for prose. */
  public static String dropped(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().filter(cp -> !isHidden(cp)).forEach(b::appendCodePoint);
    return b.toString();
  }

  /**
   * JSON text with each hidden character beyond the first plane written as its two escaped halves
   * (the same value read back): a JSON writer's escapes see one half at a time.
   */
  public static String escapedBeyondTheFirstPlane(String json) {
    return escape(json, cp -> cp > 0xFFFF && isHidden(cp));
  }
}
