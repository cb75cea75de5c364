package dev.steward.app.markdown;

import dev.steward.protocol.util.ShownText;
import java.lang.Character.UnicodeScript;
import java.util.Set;

/**
 * Prose from outside — a model's answer, an MCP server's title or description for a tool — as the
 * window shows it: what could reorder it or carry text unseen is written out the way {@link
 * ShownText#escaped} writes it, and what ordinary writing needs stands.
 *
 * <p>Always written out: controls (but line breaks and tabs, in prose kept as lines), line
 * separators, the bidirectional embeddings, overrides and isolates (which can reverse a run), plane
 * 14 (tags, the supplementary variation selectors), zero-width spaces and word joiners, the
 * invisible operators, the deprecated and the annotation format characters, and what draws as
 * nothing or blank (the Hangul fillers, the blank braille pattern, the Mongolian vowel separator,
 * the soft hyphen, the combining grapheme joiner).
 *
 * <p>Standing as they are: a bidirectional mark in a line that has right-to-left letters (Hebrew
 * and Arabic text uses them; in a line of left-to-right text their only effect is to reorder
 * numbers and signs, "Pay 5 ,100" for what the model reads as "Pay 100, 5"); a variation
 * selector directly after a character it can select (❤️, ⚠️, a CJK ideograph's variant, a
 * Mongolian letter's form) — elsewhere a row of them carries bytes no reader sees;
 * a single zero-width joiner or non-joiner between the letters of a script that joins (Persian,
 * the Indic scripts) or, a joiner, between emoji (👩‍💻, families). Anything else of these — a
 * selector after nothing or after another, joiners in a row or between Latin letters — carries
 * nothing a reader sees, so it is written out.
 */
public final class ProseText {

  /** Scripts whose letters a joiner or non-joiner never changes: there one only hides things. */
  private static final Set<UnicodeScript> NOT_JOINING = Set.of(
      UnicodeScript.LATIN,
      UnicodeScript.GREEK,
      UnicodeScript.CYRILLIC,
      UnicodeScript.ARMENIAN,
      UnicodeScript.GEORGIAN,
      UnicodeScript.HAN,
      UnicodeScript.HIRAGANA,
      UnicodeScript.KATAKANA,
      UnicodeScript.HANGUL,
      UnicodeScript.BOPOMOFO,
      UnicodeScript.COMMON,
      UnicodeScript.INHERITED,
      UnicodeScript.UNKNOWN);

  private ProseText() {}

  /** {@code s} as prose in lines: line breaks and tabs stand, the rest as the class says. */
  public static String shown(String s) {
    return shown(s, true);
  }

  /** {@code s} on one line (a title): line breaks and tabs written out too. */
  public static String oneLine(String s) {
    return shown(s, false);
  }

  private static String shown(String s, boolean lines) {
    int[] cps = s.codePoints().toArray();
    StringBuilder b = null;
    for (int i = 0; i < cps.length; i++) {
      boolean hide = hidden(cps, i, lines);
      if (hide && b == null) {
        b = new StringBuilder(s.length() + 16);
        for (int j = 0; j < i; j++) b.appendCodePoint(cps[j]);
      }
      if (b == null) continue;
      if (hide) {
        for (char c : Character.toChars(cps[i])) b.append(String.format("\\u%04x", (int) c));
      } else {
        b.appendCodePoint(cps[i]);
      }
    }
    return b == null ? s : b.toString();
  }

  /** Whether the character at {@code i} is written out, judged with its neighbours. */
  static boolean hidden(int[] cps, int i, boolean lines) {
    int cp = cps[i];
    if (cp == '\n' || cp == '\t') return !lines;
    if (isJoiner(cp)) return !joins(cps, i);
    if (isSelector(cp)) return !selects(cps, i);
    if (isMark(cp)) return !inRightToLeftLine(cps, i);
    return alwaysHidden(cp);
  }

  private static boolean alwaysHidden(int cp) {
    return Character.isISOControl(cp)
        || cp == 0x2028
        || cp == 0x2029
        || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2066 && cp <= 0x2069)
        || (cp >= 0xE0000 && cp <= 0xE0FFF)
        || cp == 0x200B
        || (cp >= 0x2060 && cp <= 0x206F)
        || cp == 0xFEFF
        || (cp >= 0xFFF0 && cp <= 0xFFFB)
        || cp == 0x3164
        || cp == 0xFFA0
        || cp == 0x115F
        || cp == 0x1160
        || cp == 0x2800
        || cp == 0x180E
        || cp == 0x00AD
        || cp == 0x034F
        || cp == 0x17B4
        || cp == 0x17B5
        || (cp >= 0x1BCA0 && cp <= 0x1BCA3)
        || (cp >= 0x1D173 && cp <= 0x1D17A);
  }

  private static boolean isJoiner(int cp) {
    return cp == 0x200C || cp == 0x200D;
  }

  /** The variation selectors that select a glyph of the character before (VS1–16, Mongolian). */
  private static boolean isSelector(int cp) {
    return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0x180B && cp <= 0x180D) || cp == 0x180F;
  }

  /** LRM, RLM and the Arabic letter mark. */
  private static boolean isMark(int cp) {
    return cp == 0x200E || cp == 0x200F || cp == 0x061C;
  }

  /** Whether the line {@code i} is in has a right-to-left letter. */
  private static boolean inRightToLeftLine(int[] cps, int i) {
    for (int j = i - 1; j >= 0 && cps[j] != '\n'; j--) if (rightToLeft(cps[j])) return true;
    for (int j = i + 1; j < cps.length && cps[j] != '\n'; j++) if (rightToLeft(cps[j])) return true;
    return false;
  }

  /** A right-to-left letter (not a mark, whose own direction is right-to-left too). */
  private static boolean rightToLeft(int cp) {
    byte d = Character.getDirectionality(cp);
    return Character.isLetter(cp)
        && (d == Character.DIRECTIONALITY_RIGHT_TO_LEFT
            || d == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC);
  }

  /**
   * A selector stands directly after a character it can select: the emoji and text selectors
   * (FE0E, FE0F) after a symbol or a keycap's digit or sign, the standardized variants (FE00–FE0D)
   * after a CJK ideograph or a mathematical symbol, the Mongolian ones after a Mongolian letter.
   */
  private static boolean selects(int[] cps, int i) {
    if (i == 0) return false;
    int cp = cps[i];
    int base = cps[i - 1];
    if (cp >= 0x180B && cp <= 0x180F)
      return Character.UnicodeScript.of(base) == UnicodeScript.MONGOLIAN;
    int type = Character.getType(base);
    if (cp == 0xFE0E || cp == 0xFE0F)
      return type == Character.OTHER_SYMBOL
          || type == Character.MATH_SYMBOL
          || (base >= '0' && base <= '9')
          || base == '#'
          || base == '*';
    return Character.UnicodeScript.of(base) == UnicodeScript.HAN || type == Character.MATH_SYMBOL;
  }

  /**
   * A joiner or non-joiner stands alone between two letters of a joining script, or a joiner
   * between two emoji (the first maybe with its skin tone or its selector).
   */
  private static boolean joins(int[] cps, int i) {
    if (i == 0 || i + 1 >= cps.length) return false;
    int before = cps[i - 1];
    int after = cps[i + 1];
    if (joiningLetter(before) && joiningLetter(after)) return true;
    if (cps[i] != 0x200D) return false;
    boolean emojiBefore =
        isEmoji(before) || isSkinTone(before) || (isSelector(before) && selects(cps, i - 1));
    return emojiBefore && isEmoji(after);
  }

  private static boolean joiningLetter(int cp) {
    int type = Character.getType(cp);
    boolean letterOrMark = Character.isLetter(cp)
        || type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK;
    return letterOrMark && !NOT_JOINING.contains(UnicodeScript.of(cp));
  }

  /** Emoji and the pictographs they are made of, as far as a character's type tells. */
  private static boolean isEmoji(int cp) {
    return Character.getType(cp) == Character.OTHER_SYMBOL;
  }

  private static boolean isSkinTone(int cp) {
    return cp >= 0x1F3FB && cp <= 0x1F3FF;
  }
}
