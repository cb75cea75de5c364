package dev.steward.protocol.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
}
