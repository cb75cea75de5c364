package dev.steward.service.undo;

import dev.steward.protocol.json.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A short description of what is at a path — absent, a file's content hash, or a folder's tree of
 * names, types and sizes — to tell whether it changed between a call and its undo.
 */
public final class Fingerprint {

  public static final String ABSENT = "absent";

  private Fingerprint() {}

  public static String of(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) return ABSENT;
    if (Files.isSymbolicLink(path)) return "link:" + Files.readSymbolicLink(path);
    if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) return "file:" + sha256(path);
    List<String> entries = new ArrayList<>();
    Files.walkFileTree(path, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        entries.add(path.relativize(file) + "|" + (attrs.isSymbolicLink() ? "l" : "f") + "|"
            + attrs.size());
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        entries.add(path.relativize(dir) + "|d");
        return FileVisitResult.CONTINUE;
      }
    });
    entries.sort(null);
    return "dir:"
        + CanonicalJson.sha256Hex(
            String.join("\n", entries).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[64 * 1024];
      int n;
      while ((n = in.read(buf)) > 0) md.update(buf, 0, n);
      return HexFormat.of().formatHex(md.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
