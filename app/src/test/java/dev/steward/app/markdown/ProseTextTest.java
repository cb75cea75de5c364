package dev.steward.app.markdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class ProseTextTest {

  private static String cp(int codePoint) {
    return new String(Character.toChars(codePoint));
  }

  @Test
  void reorderingAndInvisibleTagsAreWrittenOut() {
    String tags = cp(0xE0049) + cp(0xE007F);
    assertEquals(
        "a\\u202eb\\u2067cd\\udb40\\udc49\\udb40\\udc7f\\u200be\\ufeff\\u0007",
        ProseText.shown("a\u202eb\u2067cd" + tags + "\u200be\ufeff\u0007"));
  }

  @Test
  void ordinaryTextInAnyScriptIsLeftAsItIs() {
    String text = "Line one\n\tक्\u200dष दिन — می\u200cخواهم 👩\u200d💻 ❤\ufe0f 中文 Ελληνικά";
    assertSame(text, ProseText.shown(text));
  }

  @Test
  void hebrewAndArabicWithTheirDirectionMarksStand() {
    String hebrew = "הקובץ \u200fnotes.txt\u200f נשמר";
    String arabic = "الملف\u061C 12 \u200eKB";
    assertSame(hebrew, ProseText.shown(hebrew));
    assertSame(arabic, ProseText.shown(arabic));
  }

  @Test
  void aDirectionMarkInALineOfLeftToRightTextIsWrittenOut() {
    // Shown as "Pay 5 ,100 now" while the model reads "Pay 100, 5 now".
    assertEquals("Pay \\u200f100, 5\\u200f now", ProseText.shown("Pay \u200f100, 5\u200f now"));
    assertEquals(
        "שלום\nports \\u200f22 8080\\u200f ok",
        ProseText.shown("שלום\nports \u200f22 8080\u200f ok"),
        "judged by its own line");
  }

  @Test
  void aSelectorAfterALetterIsWrittenOut() {
    // One after each letter would carry bytes the user never sees.
    assertEquals("a\\ufe00b\\ufe0f", ProseText.shown("a\ufe00b\ufe0f"));
    assertSame("\u8fbb\ufe00 \u2229\ufe00", ProseText.shown("\u8fbb\ufe00 \u2229\ufe00"));
  }

  @Test
  void persianWithItsNonJoinerStands() {
    String persian = "می\u200cخواهم نامه\u200cها را بخوانم";
    assertSame(persian, ProseText.shown(persian));
    assertSame(persian, ProseText.oneLine(persian));
  }

  @Test
  void emojiWithSelectorsSkinTonesAndJoinersStand() {
    String emoji =
        "⚠\ufe0f ❤\ufe0f\u200d🔥 👨\u200d👩\u200d👧\u200d👦 🏳\ufe0f\u200d🌈 🧑🏽\u200d💻"
            + " 👩\u200d❤\ufe0f\u200d👨 1\ufe0f\u20e3";
    assertSame(emoji, ProseText.shown(emoji));
  }

  @Test
  void selectorsThatSelectNothingAreWrittenOut() {
    assertEquals("\\ufe0fa", ProseText.shown("\ufe0fa"), "at the start");
    assertEquals("a \\ufe0f", ProseText.shown("a \ufe0f"), "after a space");
    assertEquals("⚠\ufe0f\\ufe0f\\ufe0e", ProseText.shown("⚠\ufe0f\ufe0f\ufe0e"), "in a row");
    assertEquals(
        "a\\udb40\\udd00b\\udb40\\uddefc",
        ProseText.shown("a" + cp(0xE0100) + "b" + cp(0xE01EF) + "c"),
        "the supplementary selectors, VS17 to VS256");
  }

  @Test
  void joinersInARowOrNotBetweenLettersOrEmojiAreWrittenOut() {
    assertEquals("a\\u200db", ProseText.shown("a\u200db"), "Latin letters never join");
    assertEquals("a\\u200cb", ProseText.shown("a\u200cb"));
    assertEquals("می\\u200c\\u200cخواهم", ProseText.shown("می\u200c\u200cخواهم"), "a run of them");
    assertEquals("👩\\u200d\\u200d💻", ProseText.shown("👩\u200d\u200d💻"));
    assertEquals("می\\u200c", ProseText.shown("می\u200c"), "at the end");
    assertEquals("\\u200dمی", ProseText.shown("\u200dمی"), "at the start");
    assertEquals("👩\\u200c💻", ProseText.shown("👩\u200c💻"), "emoji join with a joiner only");
    assertEquals("1\\u200d2", ProseText.shown("1\u200d2"));
  }

  @Test
  void blankLettersAndOtherInvisiblesAreWrittenOut() {
    assertEquals(
        "a\\u3164b\\uffa0c\\u115fd\\u1160e\\u2800f\\u180eg\\u00adh\\u034fi",
        ProseText.shown("a\u3164b\uffa0c\u115fd\u1160e\u2800f\u180eg\u00adh\u034fi"));
  }

  @Test
  void oneLineWritesOutLineBreaksAndTabsToo() {
    assertEquals("a\\u000ab\\u0009c", ProseText.oneLine("a\nb\tc"));
    assertEquals("a\nb\tc", ProseText.shown("a\nb\tc"));
  }

  @Test
  void visibleArabicSignsThatAreFormatCharactersStand() {
    String signs = "\u0601١٢٣ \u06DD١";
    assertSame(signs, ProseText.shown(signs));
  }
}
