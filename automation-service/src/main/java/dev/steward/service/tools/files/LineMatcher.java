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

  /**
   * A literal searched in the raw bytes. The bytes are viewed as a Latin-1 string (a compact
   * string: one copy, no decoding), so the JDK's vectorised {@code indexOf} does the scanning and
   * lines are only counted in files that match.
   */
  private static final class Bytes extends LineMatcher {
    private final String needle;
    private final boolean fold;

    Bytes(byte[] needle, boolean fold) {
      String n = new String(needle, StandardCharsets.ISO_8859_1);
      this.needle = fold ? n.toLowerCase(java.util.Locale.ROOT) : n;
      this.fold = fold;
    }

    @Override
    List<Hit> find(byte[] bytes) {
      List<Hit> hits = new ArrayList<>();
      String hay = new String(bytes, StandardCharsets.ISO_8859_1);
      if (fold) hay = asciiLower(hay);
      int at = hay.indexOf(needle);
      int line = 1;
      int counted = 0;
      while (at >= 0) {
        for (int nl = hay.indexOf('\n', counted); nl >= 0 && nl < at; nl = hay.indexOf('\n', nl + 1)) {
          line++;
          counted = nl + 1;
        }
        int lineStart = counted;
        hits.add(hit(bytes, lineStart, line));
        int lineEnd = hay.indexOf('\n', at);
        if (lineEnd < 0) break;
        line++;
        counted = lineEnd + 1;
        at = hay.indexOf(needle, lineEnd + 1);
      }
      return hits;
    }

    /** Lower-cases ASCII letters only, as ripgrep does for an ASCII pattern. */
    private static String asciiLower(String s) {
      byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
      for (int i = 0; i < b.length; i++) if (b[i] >= 'A' && b[i] <= 'Z') b[i] += 32;
      return new String(b, StandardCharsets.ISO_8859_1);
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
