package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * files.search agrees with ripgrep ({@code rg -uuu --no-ignore}, refused names excluded) on a
 * generated tree with nested folders, symlinks, binary files, CRLF and non-UTF-8 text.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchIT {

  static final String[] WORDS = {
    "alpha",
    "needle",
    "Needle",
    "NEEDLE",
    "haystack",
    "needles",
    "nee dle",
    "bravo",
    "ToDo",
    "fixme",
    "x1",
    "needle42"
  };

  TestService t;
  StewardClient agent;

  @BeforeAll
  void tree() throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/rg"))) {
      throw new IllegalStateException(
          "ripgrep (/usr/bin/rg) is required: ./steward test installs it on Debian");
    }
    t = TestService.start();
    agent = t.client(Role.AGENT);
    Random r = new Random(42);
    Path root = t.root;
    List<Path> dirs = new ArrayList<>(List.of(root));
    for (int i = 0; i < 40; i++) {
      Path parent = dirs.get(r.nextInt(dirs.size()));
      dirs.add(Files.createDirectories(parent.resolve((i % 7 == 0 ? ".hid" : "d") + i)));
    }
    for (int i = 0; i < 400; i++) {
      Path dir = dirs.get(r.nextInt(dirs.size()));
      String ext = new String[] {".txt", ".md", ".java", ""}[r.nextInt(4)];
      StringBuilder text = new StringBuilder();
      int lines = 1 + r.nextInt(60);
      for (int l = 0; l < lines; l++) {
        for (int w = 0; w < 1 + r.nextInt(8); w++)
          text.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        text.append(i % 5 == 0 ? "\r\n" : "\n");
      }
      byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
      if (i % 13 == 0) { // not UTF-8: Latin-1 bytes around the words
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {(byte) 0xE9, (byte) 0xFF, ' '});
        out.write(bytes);
        bytes = out.toByteArray();
      }
      if (i % 17 == 0) { // binary
        bytes[Math.min(3, bytes.length - 1)] = 0;
      } else if (i % 19 == 0) { // binary, its NUL after every match
        bytes[bytes.length - 1] = 0;
      }
      Files.write(dir.resolve((i % 11 == 0 ? "." : "") + "f" + i + ext), bytes);
    }
    Files.createSymbolicLink(root.resolve("link-to-file"), dirs.get(3).resolve("f3.txt"));
    Files.createSymbolicLink(root.resolve("link-to-dir"), dirs.get(5));
    Files.createDirectories(root.resolve(".ssh"));
    Files.writeString(root.resolve(".ssh/id_rsa"), "needle in a key\n");
  }

  @AfterAll
  void stop() {
    t.close();
  }

  private TreeSet<String> ours(JsonNode args) {
    ToolResult r = TestService.exec(agent, "files.search", args);
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertFalse(r.value().get("truncated").asBoolean(), "not truncated");
    TreeSet<String> out = new TreeSet<>();
    r.value()
        .get("matches")
        .forEach(m -> out.add(
            m.get("path").asText() + (m.has("line") ? ":" + m.get("line").asInt() : "")));
    return out;
  }

  private TreeSet<String> rg(String... extra) throws Exception {
    boolean files = List.of(extra).contains("--files");
    List<String> cmd = new ArrayList<>(
        List.of("/usr/bin/rg", "-uuu", "--no-ignore", "--no-heading", "-g", "!.ssh"));
    if (!files) cmd.add("--null");
    cmd.addAll(List.of(extra));
    cmd.add(t.root.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    TreeSet<String> set = new TreeSet<>();
    for (String line : out.split("\n")) {
      if (line.isEmpty()) continue;
      int nul = line.indexOf('\0');
      if (nul < 0) {
        if (!line.contains(": binary file matches")) set.add(line); // --files output
        continue;
      }
      String rest = line.substring(nul + 1);
      int colon = rest.indexOf(':');
      if (colon < 0 || !rest.substring(0, colon).chars().allMatch(Character::isDigit))
        continue; // "binary file matches"
      set.add(line.substring(0, nul) + ":" + rest.substring(0, colon));
    }
    return set;
  }

  @ParameterizedTest(name = "content {0} regex={1} case_sensitive={2}")
  @CsvSource({
    "needle, false, true",
    "needle, false, false",
    "NEEDLE, false, true",
    "nee dle, false, true",
    "ne+dle\\d+, true, true",
    "^alpha, true, true",
    "^(?:todo|fixme), true, false",
    "needl?e, true, true",
    "need+le, true, true",
    "nee(dle|DLE), true, true",
    "needle{0}, true, true"
  })
  void content_matches_equal_ripgrep(String content, boolean regex, boolean caseSensitive)
      throws Exception {
    List<String> flags = new ArrayList<>(List.of("-n"));
    if (!regex) flags.add("-F");
    if (!caseSensitive) flags.add("-i");
    flags.add("-e");
    flags.add(content);
    TreeSet<String> expected = rg(flags.toArray(String[]::new));
    assertFalse(expected.isEmpty(), "the tree has matches for " + content);
    same(
        expected,
        ours(args(
            "path",
            t.root.toString(),
            "content",
            content,
            "regex",
            regex,
            "case_sensitive",
            caseSensitive,
            "include_hidden",
            true,
            "max_results",
            100000)));
  }

  @ParameterizedTest(name = "name_glob {0}")
  @CsvSource({"*.md", "f1*", "*.java"})
  void name_matches_equal_ripgrep_files(String glob) throws Exception {
    TreeSet<String> expected = rg("--files", "-g", glob);
    same(
        expected,
        ours(args(
            "path",
            t.root.toString(),
            "name_glob",
            glob,
            "include_hidden",
            true,
            "max_results",
            100000)));
  }

  /** Equal sets, or a failure that names the first differences rather than printing both sets. */
  private static void same(TreeSet<String> expected, TreeSet<String> actual) {
    TreeSet<String> missing = new TreeSet<>(expected);
    missing.removeAll(actual);
    TreeSet<String> extra = new TreeSet<>(actual);
    extra.removeAll(expected);
    assertTrue(
        missing.isEmpty() && extra.isEmpty(),
        "ripgrep found " + expected.size() + ", files.search " + actual.size() + "; missing "
            + missing.stream().limit(5).toList() + "; extra "
            + extra.stream().limit(5).toList());
  }

  @ParameterizedTest(name = "max_results {0}")
  @CsvSource({"5"})
  void results_are_bounded_and_say_why(int max) {
    ToolResult r = TestService.exec(
        agent,
        "files.search",
        args("path", t.root.toString(), "content", "needle", "max_results", max));
    assertEquals(max, r.value().get("matches").size());
    assertTrue(r.value().get("truncated").asBoolean());
    assertEquals("max_results", r.value().get("stopped_because").asText());
  }
}
