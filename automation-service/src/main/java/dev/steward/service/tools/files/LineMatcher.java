package dev.steward.service.tools.files;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds matching lines in a file's bytes. A case-sensitive or ASCII literal is searched as bytes
 * (no decoding, so non-UTF-8 files are searched like ripgrep does); anything else goes through
 * {@link Pattern} on the text decoded as UTF-8.
 */
abstract class LineMatcher {

  record Hit(int line, String text) {}

  abstract List<Hit> find(byte[] bytes);

  static LineMatcher of(String content, boolean regex, boolean caseSensitive) {
    boolean ascii = content.chars().allMatch(c -> c < 0x80);
    if (!regex && (caseSensitive || ascii)) {
      return new Bytes(content.getBytes(StandardCharsets.UTF_8), !caseSensitive);
    }
    int flags = Pattern.MULTILINE | (caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    return new Regex(Pattern.compile(regex ? content : Pattern.quote(content), flags));
  }

  /** The 1-based line of {@code offset} and the line's text, given where lines start. */
  static Hit hit(byte[] bytes, int lineStart, int line) {
    int end = lineStart;
    while (end < bytes.length && bytes[end] != '\n') end++;
    int textEnd = end > lineStart && bytes[end - 1] == '\r' ? end - 1 : end;
    return new Hit(line, new String(bytes, lineStart, textEnd - lineStart, StandardCharsets.UTF_8));
  }

  private static final class Bytes extends LineMatcher {
    private final byte[] needle;
    private final boolean fold;

    Bytes(byte[] needle, boolean fold) {
      this.needle = fold ? lower(needle) : needle;
      this.fold = fold;
    }

    @Override
    List<Hit> find(byte[] bytes) {
      List<Hit> hits = new ArrayList<>();
      int line = 1;
      int lineStart = 0;
      int n = needle.length;
      byte first = needle[0];
      for (int i = 0; i + n <= bytes.length; i++) {
        byte b = bytes[i];
        if (b == '\n') {
          line++;
          lineStart = i + 1;
          continue;
        }
        if ((fold ? lower(b) : b) != first || !matchesAt(bytes, i)) continue;
        hits.add(hit(bytes, lineStart, line));
        // skip to the end of this line: one hit per line
        while (i < bytes.length && bytes[i] != '\n') i++;
        line++;
        lineStart = i + 1;
      }
      return hits;
    }

    private boolean matchesAt(byte[] bytes, int at) {
      for (int k = 1; k < needle.length; k++) {
        byte b = bytes[at + k];
        if ((fold ? lower(b) : b) != needle[k]) return false;
      }
      return true;
    }

    private static byte lower(byte b) {
      return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private static byte[] lower(byte[] in) {
      byte[] out = in.clone();
      for (int i = 0; i < out.length; i++) out[i] = lower(out[i]);
      return out;
    }
  }

  private static final class Regex extends LineMatcher {
    private final Pattern pattern;

    Regex(Pattern pattern) {
      this.pattern = pattern;
    }

    @Override
    List<Hit> find(byte[] bytes) {
      List<Hit> hits = new ArrayList<>();
      String text = new String(bytes, StandardCharsets.UTF_8);
      Matcher m = pattern.matcher(text);
      int line = 1;
      int scanned = 0;
      int lastLine = -1;
      while (m.find()) {
        for (int i = scanned; i < m.start(); i++) if (text.charAt(i) == '\n') line++;
        scanned = m.start();
        if (line != lastLine) {
          int ls = text.lastIndexOf('\n', m.start() - 1) + 1;
          int le = text.indexOf('\n', m.start());
          String l = text.substring(ls, le < 0 ? text.length() : le);
          hits.add(new Hit(line, l.endsWith("\r") ? l.substring(0, l.length() - 1) : l));
          lastLine = line;
        }
      }
      return hits;
    }
  }
}
