package dev.steward.service.scope;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.List;

/**
 * Where a file came from, as a mark on the file itself that goes where it is moved: the one
 * browsers put on what they download ({@code user.xdg.origin.url}), and Steward's own on what a
 * call moves out of strangers' reach (Downloads, a read-only folder). A marked file is a
 * stranger's wherever it lies now, for every conversation that reads it.
 */
public final class Provenance {

  /** The mark browsers put on a download: the address it came from. */
  static final String DOWNLOADED = "xdg.origin.url";

  /** Steward's mark: the folder of strangers it was moved from. */
  static final String MOVED_FROM_STRANGERS = "steward.from_strangers";

  private Provenance() {}

  /**
   * Whether {@code real} carries either mark; false where marks cannot be read, and for what is
   * neither a file nor a folder (reading marks opens the file, and opening a pipe waits for a
   * writer).
   */
  public static boolean marked(Path real) {
    try {
      java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(
          real, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return (a.isRegularFile() || a.isDirectory()) && hasMark(real);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /**
   * Whether {@code fileOrFolder}, just seen to be a file or a folder (a walk's own look at it),
   * carries either mark, or may: one whose marks it may not read (a file it cannot open) counts as
   * marked, as its name was shown all the same. False where the file system keeps no marks, and
   * for what is gone. One look fewer than {@link #marked}.
   */
  public static boolean marksOn(Path fileOrFolder) {
    try {
      return hasMark(fileOrFolder);
    } catch (java.nio.file.AccessDeniedException e) {
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  private static boolean hasMark(Path fileOrFolder) throws IOException {
    UserDefinedFileAttributeView view = Files.getFileAttributeView(
        fileOrFolder, UserDefinedFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view == null) return false;
    List<String> names = view.list();
    return names.contains(DOWNLOADED) || names.contains(MOVED_FROM_STRANGERS);
  }

  /** The most entries of a moved folder that are marked one by one. */
  static final int MAX_MARKED = 10_000;

  /**
   * Marks {@code real} as moved from {@code from}, and, for a folder, what is in it (links are not
   * followed; at most {@link #MAX_MARKED} entries); a file system that keeps no marks keeps none
   * (the conversation that moved it is tainted all the same).
   */
  public static void markMoved(Path real, Path from) {
    ByteBuffer value = ByteBuffer.wrap(from.toString().getBytes(StandardCharsets.UTF_8));
    if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
      mark(real, value);
      return;
    }
    try (var walk = Files.walk(real)) {
      walk.limit(MAX_MARKED).filter(p -> !Files.isSymbolicLink(p)).forEach(p -> mark(p, value));
    } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
      // what was marked stays marked; the rest is read as where it lies
    }
  }

  /**
   * Marks a file made from a stranger's content ({@code source} says whose), so that a later
   * conversation that reads it is tainted; a file system that keeps no marks keeps none (false).
   */
  public static boolean markMade(Path real, String source) {
    return mark(real, ByteBuffer.wrap(source.getBytes(StandardCharsets.UTF_8)));
  }

  /** Whether the mark was written (a file system without extended attributes keeps none). */
  private static boolean mark(Path p, ByteBuffer value) {
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
        && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) return false; // a pipe would hold it
    try {
      UserDefinedFileAttributeView view = Files.getFileAttributeView(
          p, UserDefinedFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      if (view == null) return false;
      try {
        view.write(MOVED_FROM_STRANGERS, value.duplicate());
      } catch (java.nio.file.AccessDeniedException e) {
        writeUnlocked(p, view, value);
      }
      return true;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // no mark: only later conversations that read it miss where it came from
      return false;
    }
  }

  /**
   * Writes the mark on a file or folder its owner may not write (a program that made it read-only
   * to keep it unmarked): writable to its owner for the moment of the write, then as it was.
   */
  private static void writeUnlocked(Path p, UserDefinedFileAttributeView view, ByteBuffer value)
      throws IOException {
    java.util.Set<java.nio.file.attribute.PosixFilePermission> was =
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
    java.util.Set<java.nio.file.attribute.PosixFilePermission> open =
        java.util.EnumSet.noneOf(java.nio.file.attribute.PosixFilePermission.class);
    open.addAll(was); // a file of mode 000 has none
    open.add(java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    open.add(java.nio.file.attribute.PosixFilePermission.OWNER_READ);
    Files.setPosixFilePermissions(p, open);
    try {
      view.write(MOVED_FROM_STRANGERS, value.duplicate());
    } finally {
      Files.setPosixFilePermissions(p, was);
    }
  }
}
