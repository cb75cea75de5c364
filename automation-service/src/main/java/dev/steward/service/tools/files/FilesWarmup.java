package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.WarmupCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

/**
 * The file tools' warm-up: a small tree shaped like a source folder (1,200 text files in nested
 * folders, a few hidden and binary ones), listed, searched in each of the matcher's ways and read.
 * The JIT compiles a listing's and a search's code after some dozens of calls (the file bench saw
 * it busy until about the fiftieth listing); a small tree gets there in a fraction of the time
 * the user's tree would take.
 *
 * <p>The tree also holds what a user's tree has and a tidy one lacks: a folder of 300 entries, a
 * folder of 20 sub-folders, a deep chain, names of every length and in every script, names the
 * wire must escape, names that are prefixes of others, the last names of refused paths, links
 * and empty folders. Compiled code is specialised to what the warm-up showed it: the first user's
 * call that takes a branch the warm-up never took throws that code away and runs interpreted
 * until it is compiled again, which cost the first listing of a real tree most of its time.
 */
final class FilesWarmup {

  private static final int FOLDERS = 40;
  private static final int SUBFOLDERS = 3;
  private static final int FILES = 10;
  /** The tree's name, changed whenever what it holds does, so that an older tree is made again. */
  static final String TREE = "tree-2";

  private static final String[] WORDS = {
    "Abstract",
    "Array",
    "Buffer",
    "Channel",
    "Default",
    "Event",
    "File",
    "Hash",
    "Input",
    "Json",
    "Key",
    "List",
    "Map",
    "Node",
    "Object",
    "Path",
    "Queue",
    "Reader",
    "Stream",
    "Thread",
    "Util",
    "Value",
    "Writer",
    "x",
    "io"
  };
  private static final String[] ENDINGS = {
    ".java", ".md", ".txt", ".c", ".h", ".json", ".xml", ".properties", "", ".java.orig", "_test.go"
  };
  /** Names a wire must escape, in other scripts, with trailing dots, prefixes of one another, and the last names of refused paths that are not refused where they stand. */
  private static final String[] ODD_NAMES = {
    "r\u00e9sum\u00e9.txt",
    "\u6570\u636e.csv",
    "na\u00efve file.md",
    "a\"quote.txt",
    "back\\slash.txt",
    "tab\there.txt",
    "trailing.",
    "trailing ",
    "config.json",
    "gh",
    ".env",
    "a",
    "a.txt",
    "a.txt.orig",
    "\ud83d\ude42.txt",
    "\u00e4",
    "z",
    "Z",
    "keys",
    "A long name with several words, as a download often has (1).pdf"
  };

  private FilesWarmup() {}

  static List<WarmupCall> calls(Path scratch) throws IOException {
    Path tree = scratch.resolve(TREE);
    if (!Files.exists(tree.resolve(".complete"))) {
      Path earlier = scratch.resolve("tree-1");
      if (Files.isSymbolicLink(earlier)) Files.delete(earlier);
      dev.steward.service.util.Trees.delete(earlier);
      build(tree);
    }
    String root = tree.toString();
    return List.of(
        new WarmupCall("files.list_dir", args(root, "recursive", true, "include_hidden", true)),
        new WarmupCall("files.list_dir", args(root, "recursive", true)),
        new WarmupCall("files.list_dir", args(scratch.toString(), "include_hidden", true)),
        search(root, "ConcurrentModificationException", false, true),
        search(root, "concurrentmodification", false, false),
        search(root, "synchronized\\s*\\(this\\)", true, true),
        new WarmupCall("files.search", args(root, "name_glob", "**/*.md", "include_hidden", true)),
        new WarmupCall("files.read_text", args(tree.resolve("f0/README.md").toString())));
  }

  private static WarmupCall search(String root, String content, boolean regex, boolean cased) {
    return new WarmupCall(
        "files.search",
        args(
            root,
            "content",
            content,
            "regex",
            regex,
            "case_sensitive",
            cased,
            "include_hidden",
            true,
            "max_results",
            100000));
  }

  private static ObjectNode args(String path, Object... more) {
    ObjectNode args = Json.object().put("path", path);
    for (int i = 0; i < more.length; i += 2) {
      String key = (String) more[i];
      if (more[i + 1] instanceof Boolean b) args.put(key, b);
      else if (more[i + 1] instanceof Integer n) args.put(key, n);
      else args.put(key, (String) more[i + 1]);
    }
    return args;
  }

  /** Made again from nothing whenever it is not known to be whole. */
  private static void build(Path tree) throws IOException {
    if (Files.isSymbolicLink(tree)) Files.delete(tree); // the link, never where it points
    dev.steward.service.util.Trees.delete(tree);
    for (int f = 0; f < FOLDERS; f++) {
      Path folder = tree.resolve("f" + f);
      Files.createDirectories(folder);
      Files.writeString(folder.resolve("README.md"), "# Folder " + f + "\n\nNotes.\n");
      for (int s = 0; s < SUBFOLDERS; s++) {
        Path sub = Files.createDirectories(folder.resolve("s" + s));
        for (int n = 0; n < FILES; n++) {
          Files.writeString(sub.resolve("Source" + n + ".java"), source(f * 100 + s * 10 + n));
        }
      }
      Files.writeString(folder.resolve(".hidden"), "hidden " + f + "\n");
      Files.write(folder.resolve("data.bin"), new byte[] {0, 1, 2, 'E', 'x', 0, 'c'});
    }
    Path wide = Files.createDirectories(tree.resolve("wide"));
    for (int n = 0; n < 300; n++) {
      String name = WORDS[n % WORDS.length]
          + (n % 3 == 0 ? WORDS[(n / 3) % WORDS.length] : "")
          + (n / WORDS.length)
          + ENDINGS[n % ENDINGS.length];
      Files.writeString(wide.resolve(name), n % 5 == 0 ? source(n) : "line " + n + "\n");
    }
    Path many = Files.createDirectories(tree.resolve("many"));
    for (int s = 0; s < 20; s++) {
      Path sub = Files.createDirectories(many.resolve("m" + s));
      for (int n = 0; n < 3; n++) Files.writeString(sub.resolve("Note" + n + ".md"), "# " + s);
    }
    Files.createDirectories(many.resolve("empty"));
    Path deep = tree.resolve("deep");
    for (int d = 0; d < 12; d++) {
      deep = Files.createDirectories(deep.resolve("level" + d));
      Files.writeString(deep.resolve("Deep" + d + ".java"), source(d));
    }
    Path odd = Files.createDirectories(tree.resolve("odd"));
    for (String name : ODD_NAMES) Files.writeString(odd.resolve(name), name + "\n");
    Files.createDirectories(odd.resolve("keychains")); // refused wherever it stands
    Files.writeString(odd.resolve("keychains/login.keychain"), "refused\n");
    Files.createSymbolicLink(odd.resolve("link-to-file"), Path.of("a.txt"));
    Files.createSymbolicLink(odd.resolve("link-to-folder"), Path.of("../many"));
    Files.createSymbolicLink(odd.resolve("link-dangling"), Path.of("nothing-here"));
    stampTimes(tree);
    Files.writeString(tree.resolve(".complete"), "");
  }

  /**
   * Times over three decades, each in one of the precisions file systems keep (whole seconds, as an
   * unpacked archive has, milli-, micro- and nanoseconds), contents before their folders.
   */
  private static void stampTimes(Path tree) throws IOException {
    List<Path> all;
    try (var walk = Files.walk(tree)) {
      all = walk.sorted(java.util.Comparator.reverseOrder()).toList();
    }
    long i = 0;
    for (Path p : all) {
      if (Files.isSymbolicLink(p)) continue;
      long second = 800_000_000L + (i * 7_777_777L) % 1_100_000_000L;
      int nanos = switch ((int) (i % 4)) {
        case 0 -> 0;
        case 1 -> (int) (i % 1000) * 1_000_000;
        case 2 -> (int) (i % 1_000_000) * 1000;
        default -> (int) ((i * 7919L) % 1_000_000_000L);
      };
      Files.setLastModifiedTime(p, FileTime.from(Instant.ofEpochSecond(second, nanos)));
      i++;
    }
  }

  private static String source(int seed) {
    StringBuilder text = new StringBuilder(3000);
    text.append("package warm.up").append(seed % 7).append(";\n\n");
    text.append("public final class Source").append(seed).append(" {\n");
    for (int line = 0; line < 60; line++) {
      int k = (seed * 31 + line * 17) % 97;
      if (k == 3) text.append("  // throws ConcurrentModificationException when changed\n");
      else if (k == 5) text.append("    synchronized (this) {\n");
      else if (k == 7) text.append("  private final java.util.HashMap<String, Integer> m;\n");
      else if (k == 11)
        text.append("    throw new IllegalStateException(\"line ").append(line).append("\");\n");
      else
        text.append("    int value")
            .append(line)
            .append(" = compute(")
            .append(k)
            .append(", \"text of line ")
            .append(line)
            .append("\");\n");
    }
    return text.append("}\n").toString();
  }
}
