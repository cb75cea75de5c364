package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.WarmupCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The file tools' warm-up: a small tree shaped like a source folder (1,200 text files in nested
 * folders, a few hidden and binary ones), listed, searched in each of the matcher's ways and read.
 * The JIT compiles a listing's and a search's code after some dozens of calls (the file bench saw
 * it busy until about the fiftieth listing); a small tree gets there in a fraction of the time
 * the user's tree would take.
 */
final class FilesWarmup {

  private static final int FOLDERS = 40;
  private static final int SUBFOLDERS = 3;
  private static final int FILES = 10;

  private FilesWarmup() {}

  static List<WarmupCall> calls(Path scratch) throws IOException {
    Path tree = scratch.resolve("tree-1");
    if (!Files.exists(tree.resolve(".complete"))) build(tree);
    String root = tree.toString();
    return List.of(
        new WarmupCall("files.list_dir", args(root, "recursive", true, "include_hidden", true)),
        new WarmupCall("files.list_dir", args(root, "include_hidden", true)),
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
    deleteTree(tree);
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
    Files.writeString(tree.resolve(".complete"), "");
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

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }
}
