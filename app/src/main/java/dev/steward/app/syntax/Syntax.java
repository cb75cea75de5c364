package dev.steward.app.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a program into runs of one kind — keywords, strings, comments, numbers, variables, the
 * rest — for colouring. It never changes the text: the runs, joined, are the program as written,
 * so what the user reads in colour is exactly what will run. Python and the shell are known; any
 * other language is one plain run.
 */
public final class Syntax {

  /** What a run of text is. */
  public enum Kind {
    PLAIN,
    KEYWORD,
    STRING,
    COMMENT,
    NUMBER,
    VARIABLE
  }

  /** A run of text of one kind. */
  public record Run(Kind kind, String text) {}

  private static final Pattern PYTHON = Pattern.compile("(?<COMMENT>#[^\\n]*)"
      + "|(?<STRING>(?i:[rbuf]{0,2})(?:'''[\\s\\S]*?(?:'''|\\z)|\"\"\"[\\s\\S]*?(?:\"\"\"|\\z)"
      + "|'(?:\\\\.|[^'\\\\\\n])*'?|\"(?:\\\\.|[^\"\\\\\\n])*\"?))"
      + "|(?<NUMBER>\\b(?:0[xXoObB][0-9a-fA-F_]+|\\d[\\d_]*(?:\\.\\d*)?(?:[eE][+-]?\\d+)?j?)\\b)"
      + "|(?<KEYWORD>\\b(?:False|None|True|and|as|assert|async|await|break|class|continue|def"
      + "|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or"
      + "|pass|raise|return|try|while|with|yield)\\b)");

  private static final Pattern SHELL = Pattern.compile(
      "(?<COMMENT>(?:^|(?<=[\\s;&|(]))#[^\\n]*)"
          + "|(?<STRING>'[^']*'?|\"(?:\\\\.|[^\"\\\\])*\"?)"
          + "|(?<VARIABLE>\\$(?:\\{[^}\\n]*\\}?|[A-Za-z_][A-Za-z0-9_]*|[0-9#?@*$!-]))"
          + "|(?<NUMBER>\\b\\d+\\b)"
          + "|(?<KEYWORD>\\b(?:if|then|else|elif|fi|for|while|until|do|done|case|esac|in|function"
          + "|select|return|local|export|readonly|declare|unset|shift|exit|break|continue|source"
          + "|eval|exec|trap)\\b)",
      Pattern.MULTILINE);

  private static final List<Kind> PYTHON_KINDS =
      List.of(Kind.COMMENT, Kind.STRING, Kind.NUMBER, Kind.KEYWORD);
  private static final List<Kind> SHELL_KINDS =
      List.of(Kind.COMMENT, Kind.STRING, Kind.VARIABLE, Kind.NUMBER, Kind.KEYWORD);

  private Syntax() {}

  /** The program's runs, in order; {@code language} as a code run or a Markdown fence names it. */
  public static List<Run> runs(String language, String code) {
    Pattern p = switch (language.toLowerCase(Locale.ROOT)) {
      case "python", "py", "python3" -> PYTHON;
      case "bash", "sh", "shell", "zsh" -> SHELL;
      default -> null;
    };
    List<Kind> kinds = p == PYTHON ? PYTHON_KINDS : SHELL_KINDS;
    List<Run> runs = new ArrayList<>();
    if (p == null) {
      if (!code.isEmpty()) runs.add(new Run(Kind.PLAIN, code));
      return runs;
    }
    Matcher m = p.matcher(code);
    int at = 0;
    while (m.find()) {
      if (m.start() > at) runs.add(new Run(Kind.PLAIN, code.substring(at, m.start())));
      runs.add(new Run(kindOf(m, kinds), m.group()));
      at = m.end();
    }
    if (at < code.length()) runs.add(new Run(Kind.PLAIN, code.substring(at)));
    return runs;
  }

  private static Kind kindOf(Matcher m, List<Kind> kinds) {
    for (Kind k : kinds) if (m.group(k.name()) != null) return k;
    return Kind.PLAIN;
  }
}
