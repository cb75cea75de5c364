package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "plain",
        "a\nb\r\tc",
        "\u001b[31mred\u001b[0m",
        "\u0085\u2028",
        "emoji \uD83D\uDE00",
        "lone \uD800 surrogate"
      })
  void cleaning_is_idempotent_and_leaves_no_control_characters(String raw) {
    String once = Text.clean(raw, 50);
    assertEquals(once, Text.clean(once, 50));
    assertTrue(once.chars().noneMatch(c -> c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)), once);
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100, 2000})
  void long_text_is_cut_to_the_limit_and_stays_stable(int max) {
    String raw = "\n".repeat(5000) + "x".repeat(1 << 20);
    String once = Text.clean(raw, max);
    assertTrue(once.length() <= max, once.length() + " > " + max);
    assertEquals(once, Text.clean(once, max));
  }
}
