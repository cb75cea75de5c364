package dev.steward.protocol.home;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/** Whole-file writes that a crash can never leave half-done: write a sibling, sync, rename. */
public final class AtomicFiles {

  private AtomicFiles() {}

  public static void write(Path target, byte[] content, boolean ownerOnly) throws IOException {
    Path dir = java.util.Objects.requireNonNull(
        target.toAbsolutePath().getParent(), "a file's path has a folder");
    Files.createDirectories(dir);
    Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    FileAttribute<?>[] attrs =
        ownerOnly && FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
            ? new FileAttribute<?>[] {
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
            }
            : new FileAttribute<?>[0];
    try {
      try (FileChannel ch = FileChannel.open(
          tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), attrs)) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) ch.write(buf);
        ch.force(true);
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
