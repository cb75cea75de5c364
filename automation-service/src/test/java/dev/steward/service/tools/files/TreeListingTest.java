package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parallel listing gives exactly what a plain depth-first walk by name gives, cut anywhere. */
class TreeListingTest {

  @TempDir
  static Path tmp;

  static Path root;
  static PathScope scope;

  @BeforeAll
  static void tree() throws IOException {
    root = tmp.resolve("root");
    Random random = new Random(3);
    grow(root, 0, random);
    Files.createDirectories(root.resolve(".hidden/inside"));
    Files.writeString(root.resolve(".hidden/inside/file.txt"), "x");
    Files.createDirectories(root.resolve("keys/.ssh"));
    Files.writeString(root.resolve("keys/.ssh/id_rsa"), "secret");
    Files.createSymbolicLink(root.resolve("link-out"), tmp);
    Files.createSymbolicLink(root.resolve("d0/link-up"), root);
    scope = PathScope.of(
        List.of(new PolicyDocument.PathRoot(root.toString(), "read")),
        List.of(tmp.resolve("own")),
        tmp);
  }

  private static void grow(Path dir, int depth, Random random) throws IOException {
    Files.createDirectories(dir);
    int files = random.nextInt(6);
    for (int i = 0; i < files; i++) Files.writeString(dir.resolve("f" + i + ".txt"), "x".repeat(i));
    if (depth < 4) {
      int dirs = depth == 0 ? 4 : random.nextInt(4);
      for (int i = 0; i < dirs; i++) grow(dir.resolve("d" + i), depth + 1, random);
    }
  }

  /** The reference: one thread, one folder at a time, names sorted. */
  private static void walk(Path dir, int depth, int maxDepth, boolean hidden, List<String> out)
      throws IOException {
    List<Path> children;
    try (Stream<Path> s = Files.list(dir)) {
      children = s.sorted().toList();
    }
    for (Path child : children) {
      String name = child.getFileName().toString();
      if (!hidden && name.startsWith(".")) continue;
      if (name.equals(".ssh")) continue;
      out.add(root.relativize(child).toString());
      if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS) && depth < maxDepth)
        walk(child, depth + 1, maxDepth, hidden, out);
    }
  }

  private static List<String> listed(int max, int maxDepth, boolean hidden) throws Exception {
    ResolvedPath dir = scope.resolve(root.toString(), Access.READ);
    return paths(TreeListing.list(
        dir, new TreeListing.Settings(scope, hidden, maxDepth, max, Long.MAX_VALUE)));
  }

  /** The listed paths, relative to the root, read back from the listing's wire form. */
  private static List<String> paths(TreeListing.Result r) throws IOException {
    JsonNode entries = Json.parse(new String(r.json().toBytes(), StandardCharsets.UTF_8));
    assertEquals(r.count(), entries.size());
    List<String> out = new ArrayList<>();
    entries.forEach(
        e -> out.add(root.relativize(Path.of(e.get("path").asText())).toString()));
    return out;
  }

  @Test
  void the_whole_tree_in_walk_order() throws Exception {
    List<String> expected = new ArrayList<>();
    walk(root, 1, 64, true, expected);
    assertEquals(expected, listed(100_000, 64, true));
  }

  @ParameterizedTest(name = "max {0}, depth {1}, hidden {2}")
  @CsvSource({
    "1, 64, true",
    "2, 64, true",
    "7, 64, false",
    "23, 64, true",
    "60, 3, true",
    "100, 2, false",
    "150, 64, true",
    "1, 1, true",
    "5, 1, false"
  })
  void any_cut_is_the_walks_first_entries_and_says_it_is_cut(int max, int maxDepth, boolean hidden)
      throws Exception {
    List<String> all = new ArrayList<>();
    walk(root, 1, maxDepth, hidden, all);
    for (int round = 0;
        round < 20;
        round++) { // parallel walks finish in a different order each time
      ResolvedPath dir = scope.resolve(root.toString(), Access.READ);
      TreeListing.Result r = TreeListing.list(
          dir, new TreeListing.Settings(scope, hidden, maxDepth, max, Long.MAX_VALUE));
      assertEquals(all.subList(0, Math.min(max, all.size())), paths(r));
      assertEquals(all.size() > max, r.truncated());
    }
  }

  @Test
  void an_empty_folder_and_a_single_entry_are_whole_arrays() throws Exception {
    Path empty = Files.createDirectories(root.resolve("d0/empty-" + System.nanoTime()));
    try {
      TreeListing.Result none = TreeListing.list(
          scope.resolve(empty.toString(), Access.READ),
          new TreeListing.Settings(scope, true, 64, 100, Long.MAX_VALUE));
      assertEquals("[]", new String(none.json().toBytes(), StandardCharsets.UTF_8));
      assertEquals(0, none.count());
      Files.writeString(empty.resolve("only.txt"), "1");
      TreeListing.Result one = TreeListing.list(
          scope.resolve(empty.toString(), Access.READ),
          new TreeListing.Settings(scope, true, 64, 100, Long.MAX_VALUE));
      assertEquals(List.of(root.relativize(empty.resolve("only.txt")).toString()), paths(one));
      byte[] bytes = one.json().toBytes();
      assertEquals(']', bytes[bytes.length - 1], "the array ends the bytes: nothing after it");
      assertEquals(bytes.length, one.json().length());
      java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
      one.json().writeTo(written);
      assertEquals(
          new String(bytes, StandardCharsets.UTF_8), written.toString(StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(empty.resolve("only.txt"));
      Files.delete(empty);
    }
  }

  @Test
  void the_byte_limit_cuts_at_a_whole_entry_and_says_so() throws Exception {
    List<String> all = new ArrayList<>();
    walk(root, 1, 64, true, all);
    TreeListing.Result r = TreeListing.list(
        scope.resolve(root.toString(), Access.READ),
        new TreeListing.Settings(scope, true, 64, 100_000, 5_000));
    assertEquals("max_bytes", r.stoppedBecause());
    org.junit.jupiter.api.Assertions.assertTrue(
        r.json().length() <= 5_000, r.json().length() + " bytes");
    List<String> got = paths(r);
    org.junit.jupiter.api.Assertions.assertTrue(got.size() > 10, got.size() + " entries");
    assertEquals(all.subList(0, got.size()), got);
  }

  /**
   * With marks to read, a listing says a stranger named what it shows: a download deep in the tree,
   * found whichever thread walked its folder; not one the cut leaves out; every name past the most
   * it looks at counts as one.
   */
  @Test
  void a_listing_finds_a_strangers_name_among_what_it_shows() throws Exception {
    Path tree = Files.createDirectories(tmp.resolve("marked-tree"));
    for (int i = 0; i < 8; i++) {
      Path sub = Files.createDirectories(tree.resolve("d" + i + "/inner"));
      for (int j = 0; j < 20; j++) Files.writeString(sub.resolve("f" + j), "x");
    }
    Path stranger = tree.resolve("d6/inner/f7");
    java.nio.file.attribute.UserDefinedFileAttributeView view = Files.getFileAttributeView(
        stranger, java.nio.file.attribute.UserDefinedFileAttributeView.class);
    view.write("xdg.origin.url", StandardCharsets.UTF_8.encode("https://example.org/f7"));
    PathScope treeScope = PathScope.of(
        List.of(new PolicyDocument.PathRoot(tree.toString(), "read")),
        List.of(tmp.resolve("own")),
        tmp);
    ResolvedPath dir = treeScope.resolve(tree.toString(), Access.READ);
    for (int round = 0; round < 20; round++) {
      TreeListing.Result all = TreeListing.list(
          dir, new TreeListing.Settings(treeScope, true, 64, 1_000, Long.MAX_VALUE, true));
      assertEquals(8 * 22, all.count());
      assertEquals("file names listed (" + stranger + " is a stranger's)", all.strangers());
    }
    // Before d6/inner/f7: six folders of 22 entries, d6 and its inner, then f0, f1, f10-f19, f2-f6.
    int before = 6 * 22 + 2 + 17;
    TreeListing.Result cut = TreeListing.list(
        dir, new TreeListing.Settings(treeScope, true, 64, before, Long.MAX_VALUE, true));
    assertEquals(before, cut.count());
    assertEquals(null, cut.strangers());
    TreeListing.Result upTo = TreeListing.list(
        dir, new TreeListing.Settings(treeScope, true, 64, before + 1, Long.MAX_VALUE, true));
    org.junit.jupiter.api.Assertions.assertNotNull(upTo.strangers());
    assertEquals(
        null,
        TreeListing.list(dir, new TreeListing.Settings(treeScope, true, 64, 1_000, Long.MAX_VALUE))
            .strangers());

    Path many = Files.createDirectories(tmp.resolve("many"));
    for (int i = 0; i < TreeListing.MAX_MARKS_READ; i++) Files.createFile(many.resolve("n" + i));
    PathScope manyScope = PathScope.of(
        List.of(new PolicyDocument.PathRoot(many.toString(), "read")),
        List.of(tmp.resolve("own")),
        tmp);
    ResolvedPath manyDir = manyScope.resolve(many.toString(), Access.READ);
    assertEquals(
        null,
        TreeListing.list(
                manyDir,
                new TreeListing.Settings(manyScope, true, 1, 100_000, Long.MAX_VALUE, true))
            .strangers(),
        "as many as are looked at");
    Files.createFile(many.resolve("one-more"));
    assertEquals(
        "file names listed (too many to look for a stranger's among them)",
        TreeListing.list(
                manyDir,
                new TreeListing.Settings(manyScope, true, 1, 100_000, Long.MAX_VALUE, true))
            .strangers());
  }

  /** A name whose bytes are not valid UTF-8 is still listed, with its size: its stat goes by its own bytes. */
  @Test
  void a_name_that_is_not_valid_utf8_is_listed_by_its_own_bytes() throws Exception {
    Path odd = Files.createDirectories(tmp.resolve("odd-names"));
    Process p = new ProcessBuilder("sh", "-c", "printf 'hello' > \"$(printf 'bad\\377name.txt')\"")
        .directory(odd.toFile())
        .inheritIO()
        .start();
    assertEquals(0, p.waitFor());
    Files.writeString(odd.resolve("good.txt"), "hi");
    PathScope oddScope = PathScope.of(
        List.of(new PolicyDocument.PathRoot(odd.toString(), "read")),
        List.of(tmp.resolve("own")),
        tmp);
    TreeListing.Result r = TreeListing.list(
        oddScope.resolve(odd.toString(), Access.READ),
        new TreeListing.Settings(oddScope, true, 1, 100, Long.MAX_VALUE));
    JsonNode entries = Json.parse(new String(r.json().toBytes(), StandardCharsets.UTF_8));
    assertEquals(2, entries.size(), entries.toString());
    JsonNode bad = entries.get(0); // 'b' sorts before 'g'
    org.junit.jupiter.api.Assertions.assertTrue(
        bad.get("name").asText().startsWith("bad"), bad.toString());
    assertEquals("file", bad.get("type").asText());
    assertEquals(5, bad.get("size").asLong());

    // Its marks are read by its own bytes too; below a folder so named, every name counts.
    TreeListing.Settings marks =
        new TreeListing.Settings(oddScope, true, 64, 100, Long.MAX_VALUE, true);
    assertEquals(
        null,
        TreeListing.list(oddScope.resolve(odd.toString(), Access.READ), marks).strangers());
    Path badFile;
    try (Stream<Path> s = Files.list(odd)) {
      badFile = s.filter(f -> f.getFileName().toString().startsWith("bad"))
          .findFirst()
          .orElseThrow();
    }
    Files.getFileAttributeView(badFile, java.nio.file.attribute.UserDefinedFileAttributeView.class)
        .write("xdg.origin.url", StandardCharsets.UTF_8.encode("https://example.org/bad"));
    org.junit.jupiter.api.Assertions.assertNotNull(
        TreeListing.list(oddScope.resolve(odd.toString(), Access.READ), marks).strangers());
    Files.delete(badFile);
    Process folder = new ProcessBuilder(
            "sh", "-c", "d=\"$(printf 'dir\\377')\"; mkdir \"$d\" && echo x > \"$d/inside.txt\"")
        .directory(odd.toFile())
        .inheritIO()
        .start();
    assertEquals(0, folder.waitFor());
    String strangers =
        TreeListing.list(oddScope.resolve(odd.toString(), Access.READ), marks).strangers();
    org.junit.jupiter.api.Assertions.assertTrue(
        String.valueOf(strangers).endsWith("a folder named in bytes that are not text)"),
        strangers);
  }

  @Test
  void names_are_ordered_as_their_utf8_bytes() {
    String[] names = {"a", "B", "é", "\uFFFF", "\uD83D\uDE00", "\uE000", "ab", "", "Z\u0000"};
    for (String x : names) {
      for (String y : names) {
        int bytes = Integer.signum(java.util.Arrays.compareUnsigned(
            x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
        assertEquals(bytes, Integer.signum(TreeListing.compareAsUtf8(x, y)), x + " vs " + y);
      }
    }
  }
}
