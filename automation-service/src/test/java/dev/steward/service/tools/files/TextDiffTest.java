package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TextDiffTest {

  @Test
  void the_same_text_is_no_diff_at_all() {
    assertEquals("", TextDiff.unified("a.txt", "one\ntwo\n", "one\ntwo\n"));
  }

  @Test
  void a_changed_line_is_a_hunk_with_its_context_removals_first() {
    String diff = TextDiff.unified("d.txt", "one\ntwo\nthree\n", "one\n2\nthree\n");
    assertTrue(diff.startsWith("--- d.txt\n+++ d.txt (proposed)\n@@ -1,3 +1,3 @@\n"), diff);
    assertTrue(diff.contains(" one\n-two\n+2\n three\n"), diff);
  }

  @Test
  void only_the_final_newline_differs() {
    assertTrue(TextDiff.unified("n.txt", "x\n", "x").contains("only the newline at the end"));
  }

  @Test
  void a_long_diff_is_cut_and_says_so() {
    String before = "a\n".repeat(2000);
    String after = "b\n".repeat(2000);
    String diff = TextDiff.unified("big.txt", before, after);
    assertTrue(
        diff.endsWith("… (diff cut at " + TextDiff.MAX_OUTPUT_LINES + " lines)\n"),
        diff.substring(diff.length() - 80));
    assertTrue(diff.lines().count() <= TextDiff.MAX_OUTPUT_LINES + 4);
  }

  @Test
  void a_binary_or_huge_file_gets_a_summary() {
    assertTrue(TextDiff.unified("x.bin", null, "text").contains("binary or larger"));
  }
}
