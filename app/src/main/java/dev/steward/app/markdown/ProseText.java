package dev.steward.app.markdown;

import dev.steward.protocol.util.ShownText;

/**
 * A model's prose as the chat shows it. What could reorder it or carry text unseen is written out
 * the way {@link ShownText#escaped} writes it: controls (but line breaks and tabs), line
 * separators, the bidirectional controls, plane 14's tag characters (invisible ASCII a copied
 * answer could smuggle), zero-width spaces and word joiners, the invisible operators and the
 * deprecated format characters. The zero-width joiner and non-joiner and the variation selectors
 * stay as they are: Persian, the Indic scripts and emoji are written with them. (An emoji flag of a
 * region, spelled with tags, is shown spelled out.)
 */
final class ProseText {

  private ProseText() {}

  static boolean hidden(int cp) {
    return (Character.isISOControl(cp) && cp != '\n' && cp != '\t')
        || cp == 0x2028
        || cp == 0x2029
        || (cp <= 0xFFFF && ShownText.isBidiControl((char) cp))
        || (cp >= 0xE0000 && cp <= 0xE007F)
        || cp == 0x200B
        || (cp >= 0x2060 && cp <= 0x2064)
        || (cp >= 0x206A && cp <= 0x206F)
        || cp == 0xFEFF
        || (cp >= 0xFFF9 && cp <= 0xFFFB);
  }

  /** {@code s} with each {@link #hidden} character written out. */
  static String shown(String s) {
    if (s.codePoints().noneMatch(ProseText::hidden)) return s;
    StringBuilder b = new StringBuilder(s.length() + 16);
    s.codePoints().forEach(cp -> {
      String one = new String(Character.toChars(cp));
      // Each of these is hidden for ShownText too: it writes it out, halves and all.
      b.append(hidden(cp) ? ShownText.escaped(one) : one);
    });
    return b.toString();
  }
}
