package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LineMatcherTest {

  @ParameterizedTest
  @CsvSource(delimiter = ';', nullValues = "none", value = {
      "synchronized\\s*\\(this\\); synchronized",
      "needl?e; need",
      "need+le; need",
      "needle{0}; needl",
      "abc*; none", // 'ab' is too short to be worth a look
      "foo|barbaz; none",
      "(?i)needle; none",
      "^needle; none",
      "\\bneedle; none",
      "ne.dle; none"})
  void a_regex_promises_only_the_literal_every_match_starts_with(String regex, String literal) {
    if (literal == null) assertNull(LineMatcher.leadingLiteral(regex));
    else assertEquals(literal, LineMatcher.leadingLiteral(regex));
  }
}
