package dev.steward.service.tools.files;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16;
import static java.nio.charset.StandardCharsets.UTF_8;
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
  void the_same_text_in_another_encoding_is_a_change_of_bytes() {
    byte[] now = "héllo\n".getBytes(UTF_8);
    assertEquals("", TextDiff.ofWrite("e.txt", now, "héllo\n", UTF_8));
    String diff = TextDiff.ofWrite("e.txt", now, "héllo\n", UTF_16);
    assertTrue(diff.contains("the text reads the same; its bytes change: 7 bytes now, 14"), diff);
    assertTrue(diff.contains("written in UTF-16"), diff);
  }

  @Test
  void a_file_that_is_not_utf8_is_read_in_the_encoding_of_the_write() {
    byte[] latin1 = "café\nthé\n".getBytes(ISO_8859_1);
    String diff = TextDiff.ofWrite("l.txt", latin1, "café\nthe\n", ISO_8859_1);
    assertTrue(diff.contains(" café\n-thé\n+the\n"), diff);
    byte[] utf16 = "one\ntwo\n".getBytes(UTF_16);
    assertTrue(
        TextDiff.ofWrite("w.txt", utf16, "one\n2\n", UTF_16).contains("-two\n+2\n"),
        "a UTF-16 file has NUL bytes, yet is text in the write's encoding");
    assertTrue(TextDiff.ofWrite("w.txt", utf16, "one\n", UTF_8).contains("; no diff"));
    byte[] cp1252 = "caf\u00e9!\n".getBytes(ISO_8859_1);
    assertTrue(
        TextDiff.ofWrite("c.txt", cp1252, "café!\n", UTF_16).contains("; no diff"),
        "bytes without a byte-order mark are not read as UTF-16, which takes almost any");
  }

  @Test
  void a_binary_or_huge_file_gets_a_summary() {
    assertTrue(TextDiff.unified("x.bin", null, "text").contains("; no diff"));
  }
}
