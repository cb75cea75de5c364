package dev.steward.protocol.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.method.Grant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShownTextTest {

  @Test
  void a_name_that_would_show_reversed_or_break_its_line_is_written_out() {
    assertEquals("/w/invoice\\u202egpj.exe", ShownText.escaped("/w/invoice\u202egpj.exe"));
    assertEquals("/w/a\\u000ab\\u2028c\\u2067d", ShownText.escaped("/w/a\nb\u2028c\u2067d"));
    assertEquals("/w/\\u0085\\u200f", ShownText.escaped("/w/\u0085\u200f"));
  }

  @Test
  void what_draws_nothing_is_written_out_too() {
    // Zero-width characters in an address's query would carry data the dialog does not show.
    assertEquals(
        "https://x.example/?q=a\\u200bb\\u2060c\\ufeffd",
        ShownText.escaped("https://x.example/?q=a\u200bb\u2060c\ufeffd"));
    assertEquals("a\\ufe0fb", ShownText.escaped("a\ufe0fb"));
    String tag = new String(Character.toChars(0xE0041));
    assertTrue(ShownText.escaped("a" + tag).startsWith("a\\udb40"), ShownText.escaped("a" + tag));
    assertTrue(dev.steward.protocol.json.Json.prettyVisible(
            dev.steward.protocol.json.Json.object().put("u", "a\u200bb"))
        .contains("\\u200b"));
  }

  @Test
  void plain_text_is_kept_as_it_is() {
    String plain = "/home/zoë/Notes/計画 (2).txt";
    assertSame(plain, ShownText.escaped(plain));
    assertEquals(plain, ShownText.dropped(plain));
  }

  @Test
  void prose_loses_what_may_not_stand_as_itself() {
    assertEquals("abcd", ShownText.dropped("a\u202eb\u0007c\u061cd"));
  }

  @Test
  void the_shown_again_sentence_writes_a_paths_hidden_characters_out() {
    String said = Grant.Changed.said(List.of(
        new Grant.Changed("files.write_text", "/w/x\u202etxt.exe\nNothing changed", "gone")));
    assertEquals("/w/x\\u202etxt.exe\\u000aNothing changed is gone", said);
  }

  @Test
  void lines_stand_where_text_is_shown_as_lines() {
    assertEquals("a\n\tb\\u202ec\\u000d", ShownText.escapedKeepingLines("a\n\tb\u202ec\r"));
  }

  /** What draws blank carries text unseen, in the first plane and beyond it. */
  @Test
  void blank_letters_ignorables_and_format_characters_beyond_the_first_plane_are_written_out() {
    String secret = "?x=\u3164\u2800\u034f\u180b" + new String(Character.toChars(0x1D173))
        + new String(Character.toChars(0xE0041)) + "\u115f end";
    String shown = ShownText.escaped(secret);
    assertEquals("?x=\\u3164\\u2800\\u034f\\u180b\\ud834\\udd73\\udb40\\udc41\\u115f end", shown);
    assertEquals("?x= end", ShownText.dropped(secret));
    // A character beyond the first plane that draws is left as it is.
    String drawn = new String(Character.toChars(0x1D11E));
    assertEquals(drawn, ShownText.escaped(drawn));
  }

  @Test
  void json_shown_visibly_writes_out_what_draws_blank_and_reads_back_the_same() throws Exception {
    com.fasterxml.jackson.databind.JsonNode value = dev.steward.protocol.json.Json.object()
        .put(
            "url",
            "https://a.example/?x=\u3164" + new String(Character.toChars(0x1D173)) + "y"
                + new String(Character.toChars(0x1F600)));
    String shown = dev.steward.protocol.json.Json.prettyVisible(value);
    assertTrue(shown.contains("?x=\\u3164\\ud834\\udd73y"), shown);
    assertTrue(shown.contains(new String(Character.toChars(0x1F600))), shown);
    shown.codePoints().forEach(cp -> assertTrue(cp == '\n' || !ShownText.isHidden(cp), "" + cp));
    assertEquals(value, dev.steward.protocol.json.Json.parse(shown));
  }

  @Test
  void json_shown_visibly_reads_back_as_the_same_value() throws Exception {
    com.fasterxml.jackson.databind.JsonNode value = dev.steward.protocol.json.Json.object()
        .put("path", "/w/zoë/x\u202etxt.exe")
        .put("text", "a\u2028b\u007f\u0085 \uD83D\uDE00 \n end");
    String shown = dev.steward.protocol.json.Json.prettyVisible(value);
    assertTrue(shown.contains("x\\u202etxt.exe"), shown);
    assertTrue(shown.contains("zoë"), shown);
    assertTrue(shown.contains("\uD83D\uDE00"), shown);
    for (char c : shown.toCharArray())
      assertTrue(c == '\n' || !ShownText.isHidden(c), "hidden: " + (int) c);
    assertEquals(value, dev.steward.protocol.json.Json.parse(shown));
  }
}
