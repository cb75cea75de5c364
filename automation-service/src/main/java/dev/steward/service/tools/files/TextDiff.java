package dev.steward.service.tools.files;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A bounded unified diff for the confirmation dialog: line-based longest common subsequence, three
 * lines of context, at most {@link #MAX_OUTPUT_LINES} lines out. Inputs past the size bound get a
 * one-line summary instead — a dialog is no place for a 50 MB diff.
 */
final class TextDiff {

  static final int MAX_INPUT_BYTES = 512 * 1024;
  static final int MAX_LINES = 2000;
  static final int MAX_OUTPUT_LINES = 400;
  private static final int CONTEXT = 3;

  private TextDiff() {}

  /** The text's lines; a final newline ends the last line rather than starting an empty one. */
  private static String[] lines(String text) {
    if (text.isEmpty()) return new String[0];
    String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    return body.split("\n", -1);
  }

  static String unified(String name, @Nullable String before, String after) {
    if (before == null) return "(the current file is binary or larger than " + MAX_INPUT_BYTES / 1024 + " KB; no diff)";
    String[] a = lines(before);
    String[] b = lines(after);
    if (java.util.Arrays.equals(a, b) && !before.equals(after)) {
      return "--- " + name + "\n+++ " + name + " (proposed)\n(only the newline at the end of the file differs)\n";
    }
    if (a.length > MAX_LINES || b.length > MAX_LINES) {
      return "(" + a.length + " lines → " + b.length + " lines; too long to diff here)";
    }
    int[][] lcs = new int[a.length + 1][b.length + 1];
    for (int i = a.length - 1; i >= 0; i--) {
      for (int j = b.length - 1; j >= 0; j--) {
        lcs[i][j] = a[i].equals(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    List<String> ops = new ArrayList<>(); // " x", "-x", "+x"
    int i = 0;
    int j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i].equals(b[j])) {
        ops.add(" " + a[i++]);
        j++;
      } else if (i < a.length && (j == b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.add("-" + a[i++]); // removals first, as diff(1) shows them
      } else {
        ops.add("+" + b[j++]);
      }
    }
    StringBuilder out = new StringBuilder("--- " + name + "\n+++ " + name + " (proposed)\n");
    int lines = 0;
    int k = 0;
    int oldLine = 1;
    int newLine = 1;
    while (k < ops.size()) {
      if (ops.get(k).charAt(0) == ' ') {
        k++;
        oldLine++;
        newLine++;
        continue;
      }
      int start = Math.max(0, k - CONTEXT);
      int end = k;
      int quiet = 0;
      while (end < ops.size() && quiet <= 2 * CONTEXT) {
        quiet = ops.get(end).charAt(0) == ' ' ? quiet + 1 : 0;
        end++;
      }
      end = Math.min(ops.size(), end - Math.max(0, quiet - CONTEXT));
      int back = k - start;
      int oldStart = oldLine - back;
      int newStart = newLine - back;
      int oldCount = 0;
      int newCount = 0;
      StringBuilder hunk = new StringBuilder();
      for (int x = start; x < end; x++) {
        char c = ops.get(x).charAt(0);
        if (c != '+') oldCount++;
        if (c != '-') newCount++;
        hunk.append(ops.get(x)).append('\n');
      }
      out.append("@@ -").append(oldStart).append(',').append(oldCount).append(" +").append(newStart).append(',').append(newCount).append(" @@\n");
      for (String line : hunk.toString().split("\n", -1)) {
        if (line.isEmpty()) continue;
        if (++lines > MAX_OUTPUT_LINES) return out.append("… (diff cut at ").append(MAX_OUTPUT_LINES).append(" lines)\n").toString();
        out.append(line).append('\n');
      }
      for (int x = k; x < end; x++) {
        char c = ops.get(x).charAt(0);
        if (c != '+') oldLine++;
        if (c != '-') newLine++;
      }
      k = end;
    }
    return out.toString();
  }
}
