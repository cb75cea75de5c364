package dev.steward.service.tools.files;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A bounded unified diff for the confirmation dialog (java-diff-utils' Myers diff, three lines of
 * context, at most {@link #MAX_OUTPUT_LINES} lines out); empty when nothing changes. Inputs past the
 * size bound get a one-line summary instead — a dialog is no place for a 50 MB diff.
 */
final class TextDiff {

  static final int MAX_INPUT_BYTES = 512 * 1024;
  static final int MAX_LINES = 20_000;
  static final int MAX_OUTPUT_LINES = 400;
  private static final int CONTEXT = 3;

  private TextDiff() {}

  /** The text's lines; a final newline ends the last line rather than starting an empty one. */
  private static List<String> lines(String text) {
    if (text.isEmpty()) return List.of();
    String body = text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    return Arrays.asList(body.split("\n", -1));
  }

  static String unified(String name, @Nullable String before, String after) {
    if (before == null)
      return "(the current file is binary or larger than " + MAX_INPUT_BYTES / 1024
          + " KB; no diff)";
    if (before.equals(after)) return "";
    List<String> a = lines(before);
    List<String> b = lines(after);
    if (a.equals(b)) {
      return "--- " + name + "\n+++ " + name
          + " (proposed)\n(only the newline at the end of the file differs)\n";
    }
    if (a.size() > MAX_LINES || b.size() > MAX_LINES) {
      return "(" + a.size() + " lines → " + b.size() + " lines; too long to diff here)";
    }
    Patch<String> patch = DiffUtils.diff(a, b);
    List<String> diff =
        UnifiedDiffUtils.generateUnifiedDiff(name, name + " (proposed)", a, patch, CONTEXT);
    StringBuilder out = new StringBuilder();
    int shown = 0;
    for (String line : diff) {
      if (shown++ >= MAX_OUTPUT_LINES + 2)
        return out.append("… (diff cut at ")
            .append(MAX_OUTPUT_LINES)
            .append(" lines)\n")
            .toString();
      out.append(line).append('\n');
    }
    return out.toString();
  }
}
