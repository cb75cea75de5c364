package dev.steward.service.tools.files;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * RE2/J matches in linear time, but it compiles a counted repetition by copying what it repeats,
 * so nested counts multiply: {@code ((a{1000}){1000}){1000}} would need a billion instructions
 * and runs the service out of memory before any text is read. This measures a pattern's size the
 * way the compiler will unroll it and refuses one past {@link #LIMIT}, before compiling.
 */
final class RegexSize {

  /** The most atoms a pattern may unroll to (RE2's own program limit is of this order). */
  static final long LIMIT = 100_000;

  private RegexSize() {}

  /** @throws IllegalArgumentException saying why, for a pattern that would unroll past the limit */
  static void check(String regex) {
    long size = size(regex);
    if (size > LIMIT) {
      throw new IllegalArgumentException("the pattern's repetitions multiply to about " + size
          + " steps (at most " + LIMIT + "); nest fewer counted repetitions such as {1000}");
    }
  }

  /** The unrolled size: each atom counts one, a group the sum of its parts, a count multiplies what it follows. */
  static long size(String regex) {
    Deque<long[]> groups = new ArrayDeque<>(); // per open group: {size so far}
    long current = 0;
    long last = 0; // the size of the atom or group just read, which a quantifier applies to
    int i = 0;
    int n = regex.length();
    while (i < n) {
      char c = regex.charAt(i);
      if (c == '\\') {
        i += 2;
        last = 1;
        current = add(current, 1);
      } else if (c == '[') {
        i = endOfClass(regex, i);
        last = 1;
        current = add(current, 1);
      } else if (c == '(') {
        groups.push(new long[] {current});
        current = 0;
        i++;
        last = 0;
      } else if (c == ')') {
        long inner = current;
        current = groups.isEmpty() ? current : add(groups.pop()[0], inner);
        last = inner;
        i++;
      } else if (c == '{' && i + 1 < n && Character.isDigit(regex.charAt(i + 1))) {
        int close = regex.indexOf('}', i);
        if (close < 0) {
          i++;
          continue;
        }
        long count = count(regex.substring(i + 1, close));
        // The repeated part is already counted once; the repetition adds (count - 1) copies.
        current = add(current, mul(last, Math.max(0, count - 1)));
        last = mul(last, Math.max(1, count));
        i = close + 1;
      } else if (c == '|') {
        i++;
        last = 0;
      } else {
        if (c != '*' && c != '+' && c != '?') {
          current = add(current, 1);
          last = 1;
        }
        i++;
      }
    }
    while (!groups.isEmpty()) current = add(groups.pop()[0], current);
    return current;
  }

  private static int endOfClass(String regex, int open) {
    int i = open + 1;
    if (i < regex.length() && regex.charAt(i) == '^') i++;
    if (i < regex.length() && regex.charAt(i) == ']') i++;
    while (i < regex.length() && regex.charAt(i) != ']') i += regex.charAt(i) == '\\' ? 2 : 1;
    return i + 1;
  }

  private static long count(String inside) {
    String[] parts = inside.split(",", -1);
    long max = 0;
    for (String p : parts) {
      if (p.isEmpty()) continue;
      try {
        max = Math.max(max, Long.parseLong(p.trim()));
      } catch (NumberFormatException e) {
        return 1;
      }
    }
    return max;
  }

  private static long add(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE : s;
  }

  private static long mul(long a, long b) {
    if (a == 0 || b == 0) return 0;
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
