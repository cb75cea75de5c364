package dev.steward.service.tools.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Reads a whole file of a search by descriptor; answers null for a binary file (a NUL byte). */
final class FileBytes {

  private FileBytes() {}

  static byte @Nullable [] read(SecureDirectoryStream<Path> dir, Path name, int size) throws IOException {
    try (SeekableByteChannel ch = dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
      ByteBuffer buf = ByteBuffer.allocate(Math.max(size, 0));
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // filling
      }
      byte[] bytes = buf.array();
      int n = buf.position();
      for (int i = 0; i < n; i++) if (bytes[i] == 0) return null;
      return n == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, n);
    }
  }

}
