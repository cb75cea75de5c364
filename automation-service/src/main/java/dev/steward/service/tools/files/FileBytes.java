package dev.steward.service.tools.files;

import dev.steward.service.util.ByteSearch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * Reads a whole file of a search by descriptor. Files up to a megabyte are read into a buffer the
 * searching thread keeps, so a search of a big tree allocates next to nothing per file.
 */
final class FileBytes {

  /** A file's bytes: {@code bytes[0, length)}, valid until the thread reads its next file. */
  record Content(byte[] bytes, int length) {
    /** A binary file has a NUL byte (as ripgrep decides). */
    boolean binary() {
      return ByteSearch.indexOf(bytes, 0, length, (byte) 0) >= 0;
    }
  }

  private static final int KEPT_BUFFER = 1 << 20;

  private static final ThreadLocal<byte[]> BUFFER =
      ThreadLocal.withInitial(() -> new byte[64 << 10]);

  private FileBytes() {}

  /** The file's bytes (text or binary: see {@link Content#binary}). */
  static Content read(SecureDirectoryStream<Path> dir, Path name, int size) throws IOException {
    try (SeekableByteChannel ch =
        dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      int capacity = Math.max(size, 0);
      byte[] bytes = buffer(capacity);
      ByteBuffer buf = ByteBuffer.wrap(bytes, 0, capacity);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // filling
      }
      int length = buf.position();
      return new Content(bytes, length);
    }
  }

  private static byte[] buffer(int size) {
    if (size > KEPT_BUFFER) return new byte[size];
    byte[] kept = BUFFER.get();
    if (kept.length < size) {
      kept = new byte[Math.max(size, Math.min(kept.length * 2, KEPT_BUFFER))];
      BUFFER.set(kept);
    }
    return kept;
  }
}
