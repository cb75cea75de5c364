package dev.steward.service.tools.files;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import dev.steward.protocol.util.Counted;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
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

  /**
   * The diff of a file's bytes {@code before} and the text {@code after} that would be written in
   * {@code charset}: what changes on disk, so that the same text in another encoding is shown as a
   * change, not as none. The current file is read as UTF-8, else in the charset of the write.
   */
  static String ofWrite(String name, byte @Nullable [] before, String after, Charset charset) {
    if (before == null) return unified(name, null, after);
    byte[] written = after.getBytes(charset);
    if (Arrays.equals(before, written)) return "";
    String text = decoded(before, StandardCharsets.UTF_8);
    if (text == null && !charset.equals(StandardCharsets.UTF_8) && mayBeIn(before, charset))
      text = decoded(before, charset);
    String diff = unified(name, text, after);
    if (!diff.isEmpty()) return diff;
    return "--- " + name + "\n+++ " + name + " (proposed)\n(the text reads the same; its bytes"
        + " change: " + before.length + " bytes now, " + written.length + " written in "
        + charset.name() + ")\n";
  }

  /**
   * Whether bytes that are not UTF-8 may be read in the write's charset: a wide one (UTF-16,
   * UTF-32) reads almost any bytes as some text, so only a file that begins with its byte-order
   * mark is taken to be in one.
   */
  private static boolean mayBeIn(byte[] bytes, Charset charset) {
    if (!charset.canEncode() || charset.newEncoder().averageBytesPerChar() < 2) return true;
    return startsWith(bytes, 0xFE, 0xFF)
        || startsWith(bytes, 0xFF, 0xFE)
        || startsWith(bytes, 0x00, 0x00, 0xFE, 0xFF);
  }

  private static boolean startsWith(byte[] bytes, int... prefix) {
    if (bytes.length < prefix.length) return false;
    for (int i = 0; i < prefix.length; i++) if ((bytes[i] & 0xFF) != prefix[i]) return false;
    return true;
  }

  /** The text of the bytes in that charset, or null when they are not (or hold a NUL: binary). */
  private static @Nullable String decoded(byte[] bytes, Charset charset) {
    String text;
    try {
      text = charset.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
    return text.indexOf('\0') >= 0 ? null : text;
  }

  static String unified(String name, @Nullable String before, String after) {
    if (before == null)
      return "(the current file is binary, in another encoding or larger than "
          + MAX_INPUT_BYTES / 1024 + " KB; no diff)";
    if (before.equals(after)) return "";
    List<String> a = lines(before);
    List<String> b = lines(after);
    if (a.equals(b)) {
      return "--- " + name + "\n+++ " + name
          + " (proposed)\n(only the newline at the end of the file differs)\n";
    }
    if (a.size() > MAX_LINES || b.size() > MAX_LINES) {
      return "(" + Counted.of(a.size(), "line", "lines") + " → "
          + Counted.of(b.size(), "line", "lines") + "; too long to diff here)";
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
