package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LineMatcherTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      nullValues = "none",
      value = {
        "synchronized\\s*\\(this\\); synchronized",
        "needl?e; need",
        "need+le; need",
        "needle{0}; needl",
        "abc*; none", // 'ab' is too short to be worth a look
        "foo|barbaz; none",
        "(?i)needle; none",
        "^needle; none",
        "\\bneedle; none",
        "ne.dle; none"
      })
  void a_regex_promises_only_the_literal_every_match_starts_with(String regex, String literal) {
    if (literal == null) assertNull(LineMatcher.leadingLiteral(regex));
    else assertEquals(literal, LineMatcher.leadingLiteral(regex));
  }

  @org.junit.jupiter.api.Test
  void nested_counted_repetitions_are_refused_before_they_are_compiled() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> LineMatcher.of("((a{1000}){1000}){1000}", true, true));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("at most"), e.getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> LineMatcher.of("(x|[ab]{400}){400}", true, false));
    // Large but flat patterns and plain text with braces are fine.
    LineMatcher.of("a{1000}b{1000}", true, true);
    LineMatcher.of("((a{1000}){1000}){1000}", false, true);
    assertEquals(1000 * 1000 + 1, RegexSize.size("(a{1000}){1000}b"));
  }

  /** The plain way, as ripgrep searches: the regex run over each line alone, one hit per line that has a match. */
  private static java.util.List<LineMatcher.Hit> reference(String regex, String text) {
    com.google.re2j.Pattern p =
        com.google.re2j.Pattern.compile(regex, com.google.re2j.Pattern.MULTILINE);
    java.util.List<LineMatcher.Hit> hits = new java.util.ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (p.matcher(l).find())
        hits.add(new LineMatcher.Hit(i + 1, l.endsWith("\r") ? l.substring(0, l.length() - 1) : l));
    }
    return hits;
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "need+le\\d*",
        "needl?e",
        "syn\\s*\\(this\\)",
        "needle\\b",
        "needle(s|7)",
        "nee(dle)+",
        "needle.*needle"
      })
  void a_regex_finds_the_lines_a_line_by_line_scan_finds(String regex) {
    java.util.Random random = new java.util.Random(regex.hashCode());
    String[] words = {
      "needle",
      "neeedle",
      "needl",
      "needles",
      "nee",
      "dle",
      "syn",
      "(this)",
      " ",
      "\n",
      "\r\n",
      "x",
      "é",
      "needle7",
      "syn \n(this)"
    };
    LineMatcher matcher = LineMatcher.of(regex, true, true);
    LineMatcher unprefiltered =
        LineMatcher.of(regex, true, false); // case-insensitive: no literal to jump to
    for (int round = 0; round < 2000; round++) {
      StringBuilder text = new StringBuilder();
      int n = random.nextInt(30);
      for (int i = 0; i < n; i++) text.append(words[random.nextInt(words.length)]);
      byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertEquals(
          reference(regex, text.toString()), matcher.find(bytes, bytes.length), text::toString);
      assertEquals(
          reference("(?i)" + regex, text.toString()),
          unprefiltered.find(bytes, bytes.length),
          text::toString);
    }
  }
}
