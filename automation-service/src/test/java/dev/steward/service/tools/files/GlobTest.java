package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import org.junit.jupiter.api.Test;

class GlobTest {

  @Test
  void matches_as_the_jdks_glob_does_for_the_usual_forms() {
    List<String> globs = List.of(
        "*.md",
        "note?.txt",
        "[abc]*.java",
        "[!a-m]*",
        "*.{md,txt}",
        "**/*.txt",
        "src/**/Test*.java",
        "a\\*b",
        "*",
        "a*b*c");
    List<String> names = List.of(
        "README.md",
        "notes.txt",
        "note1.txt",
        "b.java",
        "Zeta",
        "x.md",
        "deep/er/a.txt",
        "src/x/y/TestA.java",
        "src/TestB.java",
        "a*b",
        "axb",
        "abc",
        "aXbYc",
        ".hidden.md",
        "a/b.md");
    for (String g : globs) {
      PathMatcher jdk = FileSystems.getDefault().getPathMatcher("glob:" + g);
      Glob ours = Glob.of(g);
      for (String n : names) {
        // The JDK's "**/" needs at least one folder; ours, like most shells', also matches none.
        if (g.contains("**/")
            && ours.matches(n)
            && FileSystems.getDefault()
                .getPathMatcher("glob:" + g.replace("**/", ""))
                .matches(Path.of(n))) continue;
        assertEquals(jdk.matches(Path.of(n)), ours.matches(n), g + " on " + n);
      }
    }
    assertTrue(Glob.of("**/*.txt").matches("a.txt"));
  }

  /** The JDK's matcher would not answer this in the lifetime of the machine; ours answers at all. */
  @Test
  @org.junit.jupiter.api.Timeout(value = 30, unit = java.util.concurrent.TimeUnit.SECONDS)
  void a_glob_of_hundreds_of_stars_is_answered() {
    assertFalse(Glob.of("*a".repeat(300) + "b").matches("a".repeat(5000)));
    assertTrue(Glob.of("*a".repeat(300) + "b").matches("a".repeat(300) + "b"));
  }

  @Test
  void a_broken_glob_says_what_is_wrong() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Glob.of("[abc"))
        .getMessage()
        .contains("never closed"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Glob.of("{a,b"))
        .getMessage()
        .contains("never closed"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Glob.of("a}"))
        .getMessage()
        .contains("'}'"));
  }
}
