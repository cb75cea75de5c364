package dev.steward.service.audit;

import dev.steward.protocol.audit.WholeArgs;
import dev.steward.protocol.json.CanonicalJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole arguments of calls whose audit preview had to be cut, one file each, named by the
 * SHA-256 of its text: the row's preview ends with that hash (and the row's hash covers the
 * preview), so a text read back is checked against the chain, and a text kept twice is one file.
 * Each is written whole before its row, through a temporary file moved into place.
 */
final class KeptArgs {

  /** More than a request frame can carry (1 MiB), escapes and all. */
  static final long MAX_BYTES = 8L << 20;

  private final Path dir;
  private final Durability durability;
  /**
   * Files read and found to match their names, by what would change if they were written again:
   * checked once, not on every verification.
   */
  private final Map<String, String> matched = new ConcurrentHashMap<>();

  KeptArgs(Path dir, Durability durability) {
    this.dir = dir;
    this.durability = durability;
  }

  /** Keeps {@code text}; returns its hash, the file's name. */
  String keep(String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES)
      throw new IOException("arguments of " + bytes.length + " bytes are more than can be kept");
    String hash = CanonicalJson.sha256Hex(bytes);
    if (intact(hash)) return hash; // the same arguments, kept for an earlier call
    Files.createDirectories(dir);
    Path temporary = Files.createTempFile(dir, hash, ".part");
    try {
      try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) out.write(b);
        if (durability == Durability.SYNC) out.force(true);
      }
      try {
        Files.move(temporary, dir.resolve(hash), StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException e) {
        // kept meanwhile by another call with the same arguments
      }
      // The name too must outlive a power loss that the row written next outlives.
      if (durability == Durability.SYNC) forceDirectory();
    } finally {
      Files.deleteIfExists(temporary);
    }
    return hash;
  }

  private void forceDirectory() throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  /** Whether the text of {@code hash} is kept and matches it. */
  boolean intact(String hash) {
    try {
      if (!WholeArgs.isHash(hash)) return false;
      String stamp = stamp(dir.resolve(hash));
      if (stamp == null) return false;
      if (stamp.equals(matched.get(hash))) return true;
      if (read(hash).isEmpty()) return false;
      matched.put(hash, stamp);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** What changes when a file is written again: its size, time and identity; null if absent. */
  private static @org.jspecify.annotations.Nullable String stamp(Path file) throws IOException {
    try {
      BasicFileAttributes a =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isRegularFile() ? a.size() + ":" + a.lastModifiedTime() + ":" + a.fileKey() : null;
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * The text kept under {@code hash}, checked against it; empty when none is kept.
   *
   * @throws IOException when it cannot be read, or it no longer matches its hash
   */
  Optional<String> read(String hash) throws IOException {
    if (!WholeArgs.isHash(hash)) throw new IllegalArgumentException("not a SHA-256 in hex");
    Path file = dir.resolve(hash);
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_BYTES)
        throw new IOException("the arguments kept under this hash were changed after they were"
            + " written (they are larger than any kept)");
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    if (!CanonicalJson.sha256Hex(bytes).equals(hash))
      throw new IOException(
          "the arguments kept under this hash were changed after they were written");
    return Optional.of(new String(bytes, StandardCharsets.UTF_8));
  }
}
