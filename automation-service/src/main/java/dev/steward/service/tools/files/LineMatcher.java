package dev.steward.service.tools.files;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.steward.service.util.ByteSearch;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Finds matching lines in a file's bytes. A case-sensitive or ASCII literal is searched in the
 * bytes themselves (no decoding, so non-UTF-8 files are searched like ripgrep does); anything else
 * goes through RE2/J on the text decoded as UTF-8 — after a cheap check, where the pattern allows
 * one, that the file holds the literal every match must start with. RE2/J matches in time linear
 * in the text (no look-around, no back-references, as ripgrep's default engine), so no pattern
 * can keep a core busy; a search that is stopped still stops a long match within a few thousand
 * characters.
 */
abstract class LineMatcher {

  record Hit(int line, String text) {}

  /** The matching lines of {@code bytes[0, length)}; stops early (with what it has) once {@code stop} says so. */
  abstract List<Hit> find(byte[] bytes, int length, BooleanSupplier stop);

  /** The matching lines of {@code bytes[0, length)}. */
  final List<Hit> find(byte[] bytes, int length) {
    return find(bytes, length, () -> false);
  }

  /**
   * Whether {@link #find} first looks for a literal that every match holds, so that a file without
   * it costs one fast scan (and asking whether the file is binary can wait for a hit).
   */
  abstract boolean prefilters();

  /**
   * @throws PatternSyntaxException when {@code content} is not a regular expression RE2/J accepts
   * @throws IllegalArgumentException when its repetitions would unroll past {@link RegexSize#LIMIT}
   */
  static LineMatcher of(String content, boolean regex, boolean caseSensitive) {
    boolean ascii = content.chars().allMatch(c -> c < 0x80);
    if (!regex && (caseSensitive || ascii)) {
      return new Literal(content, !caseSensitive);
    }
    int flags = Pattern.MULTILINE | (caseSensitive ? 0 : Pattern.CASE_INSENSITIVE);
    if (regex) RegexSize.check(content);
    String required = regex && caseSensitive ? leadingLiteral(content) : null;
    return new Regex(Pattern.compile(regex ? content : Pattern.quote(content), flags), required);
  }

  /**
   * The ASCII text every match of {@code regex} starts with, or null when there is none worth
   * checking: plain characters up to the first metacharacter, less the last one when a quantifier
   * that allows zero follows it. Any alternation anywhere means no such text can be promised.
   */
  static @Nullable String leadingLiteral(String regex) {
    if (regex.indexOf('|') >= 0) return null;
    int end = 0;
    while (end < regex.length() && isPlain(regex.charAt(end))) end++;
    if (end < regex.length() && "*?{".indexOf(regex.charAt(end)) >= 0) end--;
    return end >= 3 ? regex.substring(0, end) : null;
  }

  private static boolean isPlain(char c) {
    return c < 0x80 && "\\[](){}.*+?^$|".indexOf(c) < 0;
  }

  /** The 1-based line starting at {@code lineStart}, without its line ending, decoded as UTF-8. */
  static Hit hit(byte[] bytes, int length, int lineStart, int line) {
    int end = ByteSearch.indexOf(bytes, lineStart, length, (byte) '\n');
    if (end < 0) end = length;
    int textEnd = end > lineStart && bytes[end - 1] == '\r' ? end - 1 : end;
    return new Hit(line, new String(bytes, lineStart, textEnd - lineStart, StandardCharsets.UTF_8));
  }

  /** A literal searched in the raw bytes; lines are only counted in files that match. */
  private static final class Literal extends LineMatcher {
    private static final int KEPT_BUFFER = 1 << 20;
    private static final ThreadLocal<byte[]> LOWERED =
        ThreadLocal.withInitial(() -> new byte[64 << 10]);

    private final byte[] needle;
    private final boolean fold;

    Literal(String content, boolean fold) {
      this.needle = (fold ? content.toLowerCase(java.util.Locale.ROOT) : content)
          .getBytes(StandardCharsets.UTF_8);
      this.fold = fold;
    }

    @Override
    boolean prefilters() {
      return true;
    }

    @Override
    List<Hit> find(byte[] bytes, int length, BooleanSupplier stop) {
      byte[] hay = fold ? asciiLower(bytes, length) : bytes;
      int at = ByteSearch.indexOf(hay, 0, length, needle);
      if (at < 0) return List.of();
      List<Hit> hits = new ArrayList<>();
      int line = 1;
      int counted = 0;
      while (at >= 0) {
        for (int nl = ByteSearch.indexOf(hay, counted, at, (byte) '\n');
            nl >= 0;
            nl = ByteSearch.indexOf(hay, nl + 1, at, (byte) '\n')) {
          line++;
          counted = nl + 1;
        }
        hits.add(hit(bytes, length, counted, line));
        int lineEnd = ByteSearch.indexOf(hay, at, length, (byte) '\n');
        if (lineEnd < 0) break;
        line++;
        counted = lineEnd + 1;
        at = ByteSearch.indexOf(hay, lineEnd + 1, length, needle);
      }
      return hits;
    }

    /** Lower-cases ASCII letters only, as ripgrep does for an ASCII pattern. */
    private static byte[] asciiLower(byte[] bytes, int length) {
      // Into a buffer the searching thread keeps (as the file's bytes are): a copy per file was
      // as much garbage as the tree is big.
      byte[] b = LOWERED.get();
      if (b.length < length) {
        b = new byte[Math.max(length, Math.min(b.length * 2, KEPT_BUFFER))];
        if (b.length <= KEPT_BUFFER) LOWERED.set(b);
      }
      for (int i = 0; i < length; i++) {
        byte c = bytes[i];
        b[i] = c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
      }
      return b;
    }
  }

  private static final class Regex extends LineMatcher {
    private final Pattern pattern;
    private final byte @Nullable [] requiredBytes;

    Regex(Pattern pattern, @Nullable String required) {
      this.pattern = pattern;
      this.requiredBytes = required == null ? null : required.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    boolean prefilters() {
      return requiredBytes != null;
    }

    @Override
    List<Hit> find(byte[] bytes, int length, BooleanSupplier stop) {
      byte[] literal = requiredBytes;
      if (literal != null) return findFromLiteral(bytes, length, literal, stop);
      String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
      Matcher m = pattern.matcher(new Stoppable(text, stop));
      Matcher inLine = null;
      List<Hit> hits = new ArrayList<>();
      int line = 1;
      int scanned = 0;
      int from = 0;
      try {
        while (from <= text.length() && m.find(from)) {
          int start = m.start();
          for (int nl = text.indexOf('\n', scanned);
              nl >= 0 && nl < start;
              nl = text.indexOf('\n', nl + 1)) line++;
          scanned = start;
          int ls = text.lastIndexOf('\n', start - 1) + 1;
          int le = text.indexOf('\n', start);
          int lineEnd = le < 0 ? text.length() : le;
          // Matches are of one line, as ripgrep's are: a match that runs on past its line's end
          // (\s and [^…] also take a newline) counts only if the line alone has one.
          boolean found = m.end() <= lineEnd;
          if (!found) {
            CharSequence alone = text.subSequence(ls, lineEnd);
            inLine = inLine == null ? pattern.matcher(alone) : inLine.reset(alone);
            found = inLine.find();
          }
          if (found) {
            String l = text.substring(ls, lineEnd);
            hits.add(new Hit(line, l.endsWith("\r") ? l.substring(0, l.length() - 1) : l));
          }
          from = lineEnd + 1; // the rest of the line adds nothing
        }
      } catch (Stopped e) {
        // the search was stopped (time limit, cancel): what was found so far stands
      }
      return hits;
    }

    /**
     * Every match starts with {@code literal}: each place it occurs (found in the raw bytes, far
     * faster than the engine walks there) is asked whether a match starts right there, within its
     * line (as ripgrep matches line by line), on that line's UTF-8 bytes, which the engine reads
     * without a decoded copy of the file.
     */
    private List<Hit> findFromLiteral(
        byte[] bytes, int length, byte[] literal, BooleanSupplier stop) {
      int at = ByteSearch.indexOf(bytes, 0, length, literal);
      if (at < 0) return List.of();
      List<Hit> hits = new ArrayList<>();
      Matcher m = null;
      int line = 1;
      int counted = 0;
      while (at >= 0 && !stop.getAsBoolean()) {
        int lineEnd = ByteSearch.indexOf(bytes, at, length, (byte) '\n');
        int end = lineEnd < 0 ? length : lineEnd;
        byte[] rest = java.util.Arrays.copyOfRange(bytes, at, end);
        m = m == null ? pattern.matcher(rest) : m.reset(rest);
        if (!m.lookingAt()) {
          at = ByteSearch.indexOf(bytes, at + 1, length, literal);
          continue;
        }
        for (int nl = ByteSearch.indexOf(bytes, counted, at, (byte) '\n');
            nl >= 0;
            nl = ByteSearch.indexOf(bytes, nl + 1, at, (byte) '\n')) {
          line++;
          counted = nl + 1;
        }
        hits.add(hit(bytes, length, counted, line));
        if (lineEnd < 0) break;
        line++;
        counted = lineEnd + 1;
        at = ByteSearch.indexOf(
            bytes, lineEnd + 1, length, literal); // the rest of a matching line adds nothing
      }
      return hits;
    }
  }

  /** Thrown out of the engine when the search is stopped. */
  private static final class Stopped extends RuntimeException {
    Stopped() {
      super("stopped", null, false, false);
    }
  }

  /** The text as the engine reads it, asking every few thousand characters whether to stop. */
  private static final class Stoppable implements CharSequence {
    private static final int EVERY = 4096;
    private final String text;
    private final BooleanSupplier stop;
    private int reads;

    Stoppable(String text, BooleanSupplier stop) {
      this.text = text;
      this.stop = stop;
    }

    @Override
    public char charAt(int index) {
      if (++reads >= EVERY) {
        reads = 0;
        if (stop.getAsBoolean()) throw new Stopped();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
