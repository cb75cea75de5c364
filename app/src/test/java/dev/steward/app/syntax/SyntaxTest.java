package dev.steward.app.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SyntaxTest {

  private static String joined(List<Syntax.Run> runs) {
    return runs.stream().map(Syntax.Run::text).collect(Collectors.joining());
  }

  private static List<String> of(Syntax.Kind kind, List<Syntax.Run> runs) {
    return runs.stream().filter(r -> r.kind() == kind).map(Syntax.Run::text).toList();
  }

  @Test
  void pythonKeywordsStringsCommentsAndNumbersAreTold() {
    String code = "def f(x):\n    return 'it''s' + \"#not a comment\" + str(0x1F)  # why\n"
        + "print(f(2.5e3), None)\ns = '''two\nlines'''\n";
    List<Syntax.Run> runs = Syntax.runs("python", code);
    assertEquals(code, joined(runs));
    assertEquals(List.of("def", "return", "None"), of(Syntax.Kind.KEYWORD, runs));
    assertEquals(
        List.of("'it'", "'s'", "\"#not a comment\"", "'''two\nlines'''"),
        of(Syntax.Kind.STRING, runs));
    assertEquals(List.of("# why"), of(Syntax.Kind.COMMENT, runs));
    assertEquals(List.of("0x1F", "2.5e3"), of(Syntax.Kind.NUMBER, runs));
  }

  @Test
  void shellVariablesAreToldAndAHashInsideAWordIsNoComment() {
    String code = "for f in *.txt; do echo \"$f\" ${HOME} $#; done # list\nrm -rf a#b";
    List<Syntax.Run> runs = Syntax.runs("bash", code);
    assertEquals(code, joined(runs));
    assertEquals(List.of("for", "in", "do", "done"), of(Syntax.Kind.KEYWORD, runs));
    assertEquals(List.of("${HOME}", "$#"), of(Syntax.Kind.VARIABLE, runs));
    assertEquals(List.of("# list"), of(Syntax.Kind.COMMENT, runs));
    assertEquals(List.of("\"$f\""), of(Syntax.Kind.STRING, runs));
  }

  @Test
  void anyTextComesBackAsWrittenInEveryLanguage() {
    Random random = new Random(20261127);
    String alphabet = "ab1 #'\"\\$\n{}()\t_é'''\"\"\"";
    for (int i = 0; i < 2_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(60);
      for (int k = 0; k < n; k++) sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      String code = sb.toString();
      for (String language : List.of("python", "bash", "ruby", "")) {
        List<Syntax.Run> runs = Syntax.runs(language, code);
        assertEquals(code, joined(runs), language + ": " + code);
        assertTrue(runs.stream().noneMatch(r -> r.text().isEmpty()), language + ": " + code);
      }
    }
  }
}
