package dev.steward.app.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ProseTextTest {

  @Test
  void reorderingAndInvisibleTagsAreWrittenOut() {
    String tags = new String(Character.toChars(0xE0049)) + new String(Character.toChars(0xE007F));
    assertEquals(
        "a\\u202eb\\u2067c\\u200fd\\udb40\\udc49\\udb40\\udc7f\\u200be\\ufeff\\u0007",
        ProseText.shown("a\u202eb\u2067c\u200fd" + tags + "\u200be\ufeff\u0007"));
  }

  @Test
  void ordinaryTextInAnyScriptIsLeftAsItIs() {
    String text = "Line one\n\tशुभ\u200d दिन — می\u200cخواهم 👩\u200d💻 ❤\ufe0f 中文 Ελληνικά";
    assertSame(text, ProseText.shown(text));
  }
}
