package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Re2PatternsTest {

  @Test
  void a_pattern_that_backtracks_for_ages_elsewhere_is_matched_in_linear_time() {
    // With java.util.regex this takes longer than the age of the universe at this length.
    var p = new Re2Patterns().getRegularExpression("^(a+)+$");
    assertFalse(p.matches("a".repeat(5_000) + "!"));
    assertTrue(p.matches("aaaa"));
  }

  @Test
  void patterns_are_not_anchored_as_json_schema_says() {
    assertTrue(new Re2Patterns().getRegularExpression("b+").matches("abbbc"));
  }

  @Test
  void a_pattern_re2_cannot_take_is_refused_not_weakened() {
    assertThrows(
        IllegalArgumentException.class, () -> new Re2Patterns().getRegularExpression("(a)\\1"));
  }
}
