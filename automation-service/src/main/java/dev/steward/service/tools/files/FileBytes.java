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
import org.jspecify.annotations.Nullable;

/**
 * Reads a whole file of a search by descriptor. Files up to a megabyte are read into a buffer the
 * searching thread keeps, so a search of a big tree allocates next to nothing per file.
 */
final class FileBytes {

  /** A file's bytes: {@code bytes[0, length)}, valid until the thread reads its next file. */
  record Content(byte[] bytes, int length) {}

  private static final int KEPT_BUFFER = 1 << 20;

  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[64 << 10]);

  private FileBytes() {}

  /** The file's bytes, or null for a binary file (one with a NUL byte). */
  static @Nullable Content read(SecureDirectoryStream<Path> dir, Path name, int size) throws IOException {
    try (SeekableByteChannel ch = dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      int capacity = Math.max(size, 0);
      byte[] bytes = buffer(capacity);
      ByteBuffer buf = ByteBuffer.wrap(bytes, 0, capacity);
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // filling
      }
      int length = buf.position();
      return ByteSearch.indexOf(bytes, 0, length, (byte) 0) >= 0 ? null : new Content(bytes, length);
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
