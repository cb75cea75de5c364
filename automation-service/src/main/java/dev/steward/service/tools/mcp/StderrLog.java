package dev.steward.service.tools.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A server's stderr, kept in {@code data/mcp/<server>.log} for the user: appended as it comes, and
 * moved to {@code .log.1} (replacing the one before) whenever it passes {@link #MAX_BYTES}, so a
 * noisy server cannot fill the disk.
 */
final class StderrLog {

  static final long MAX_BYTES = 1 << 20;

  private StderrLog() {}

  static void pump(InputStream in, Path log) {
    byte[] buffer = new byte[8192];
    try (InputStream from = in) {
      OutputStream out = open(log);
      long size = Files.size(log);
      try {
        int n;
        while ((n = from.read(buffer)) > 0) {
          if (size + n > MAX_BYTES) {
            out.close();
            Files.move(
                log,
                log.resolveSibling(log.getFileName() + ".1"),
                StandardCopyOption.REPLACE_EXISTING);
            out = open(log);
            size = 0;
          }
          out.write(buffer, 0, n);
          out.flush();
          size += n;
        }
      } finally {
        out.close();
      }
    } catch (IOException e) {
      // the server ended, or the log cannot be written: what it says is lost, nothing else is
    }
  }

  private static OutputStream open(Path log) throws IOException {
    return Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
