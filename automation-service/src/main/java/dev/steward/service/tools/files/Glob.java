package dev.steward.service.tools.files;

import com.google.re2j.Pattern;

/**
 * A file-name glob ({@code *}, {@code **}, {@code ?}, {@code [abc]}, {@code [!a-z]}, {@code {a,b}}),
 * matched in time linear in the name however many stars it has: it is translated to an RE2/J
 * pattern, where the JDK's glob matcher backtracks (a glob of hundreds of {@code *} kept a core
 * busy long after the call had answered).
 */
final class Glob {

  static final int MAX_LENGTH = 1000;

  private final Pattern pattern;

  private Glob(Pattern pattern) {
    this.pattern = pattern;
  }

  /** @throws IllegalArgumentException naming what is wrong with {@code glob} */
  static Glob of(String glob) {
    if (glob.length() > MAX_LENGTH)
      throw new IllegalArgumentException("it is longer than " + MAX_LENGTH + " characters");
    return new Glob(Pattern.compile(toRegex(glob), Pattern.DOTALL));
  }

  boolean matches(String name) {
    return pattern.matches(name);
  }

  static String toRegex(String glob) {
    StringBuilder re = new StringBuilder(glob.length() * 2);
    int braces = 0;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*' -> {
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            i++;
            // "**/" also matches no folder at all
            if (i + 1 < glob.length() && glob.charAt(i + 1) == '/') {
              i++;
              re.append("(?:.*/)?");
            } else {
              re.append(".*");
            }
          } else {
            re.append("[^/]*");
          }
        }
        case '?' -> re.append("[^/]");
        case '[' -> i = bracket(glob, i, re);
        case '{' -> {
          braces++;
          re.append("(?:");
        }
        case '}' -> {
          if (braces == 0) throw new IllegalArgumentException("a '}' without its '{' at " + i);
          braces--;
          re.append(')');
        }
        case ',' -> re.append(braces > 0 ? "|" : ",");
        case '\\' -> {
          if (i + 1 >= glob.length())
            throw new IllegalArgumentException("it ends with a lone '\\'");
          re.append(Pattern.quote(String.valueOf(glob.charAt(++i))));
        }
        default -> re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    if (braces > 0) throw new IllegalArgumentException("a '{' is never closed");
    return re.toString();
  }

  /** A bracket expression from {@code open}; answers the index of its closing ']'. */
  private static int bracket(String glob, int open, StringBuilder re) {
    int i = open + 1;
    StringBuilder set = new StringBuilder("[");
    if (i < glob.length() && (glob.charAt(i) == '!' || glob.charAt(i) == '^')) {
      set.append('^');
      i++;
    }
    boolean first = true;
    for (; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == ']' && !first) {
        re.append(set).append(']');
        return i;
      }
      first = false;
      if (c == '\\' || c == '[' || c == ']' || c == '^') set.append('\\');
      if (c == '/') throw new IllegalArgumentException("a '/' inside [ ] at " + i);
      set.append(c);
    }
    throw new IllegalArgumentException("a '[' is never closed");
  }
}
