package dev.steward.service.audit;

import dev.steward.protocol.audit.WholeArgs;
import dev.steward.protocol.json.CanonicalJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

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
    Path file = dir.resolve(hash);
    // Written again when it is there already: a copy changed since is made whole.
    Files.createDirectories(dir);
    Path temporary = Files.createTempFile(dir, hash, ".part");
    try {
      try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) out.write(b);
        if (durability == Durability.SYNC) out.force(true);
      }
      try {
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException e) {
        // kept meanwhile by another call with the same arguments
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
    return hash;
  }

  /** Whether the text of {@code hash} is kept and matches it. */
  boolean intact(String hash) {
    try {
      return read(hash).isPresent();
    } catch (IOException | IllegalArgumentException e) {
      return false;
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
