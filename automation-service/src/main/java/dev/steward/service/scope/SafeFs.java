package dev.steward.service.scope;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * File operations that cannot be redirected by a symlink swapped in after the scope check. Each
 * operation opens the root, then every folder down to the target relative to the one before it
 * with {@code NOFOLLOW_LINKS} (openat with O_NOFOLLOW on Linux and macOS), so a folder replaced by
 * a link mid-call makes the call fail instead of escaping the root.
 */
public final class SafeFs {

  private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

  private SafeFs() {}

  /** A folder opened by descriptor, with the name of the target inside it. */
  public record Dir(SecureDirectoryStream<Path> stream, Path name) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      stream.close();
    }
  }

  /** Thrown when the walk from the root met a link or a non-folder where a folder was checked. */
  public static final class PathChanged extends IOException {
    public PathChanged(String message) {
      super(message);
    }
  }

  /** Opens the folder that holds {@code path}, walking from its root without following links. */
  public static Dir openParent(ResolvedPath path) throws IOException {
    if (path.isRoot())
      throw new IOException("the root folder itself has no parent inside the scope");
    Path rel = path.relative();
    SecureDirectoryStream<Path> dir = openRoot(path.root());
    try {
      for (int i = 0; i < rel.getNameCount() - 1; i++) {
        dir = descend(dir, rel.getName(i));
      }
      return new Dir(dir, rel.getFileName());
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }

  /** Opens {@code path} itself as a folder, walking from its root without following links. */
  public static SecureDirectoryStream<Path> openDir(ResolvedPath path) throws IOException {
    SecureDirectoryStream<Path> dir = openRoot(path.root());
    try {
      for (Path name : path.relative()) {
        if (name.toString().isEmpty()) continue;
        dir = descend(dir, name);
      }
      return dir;
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }

  /** Opens a child folder of an open folder; a link there is refused. */
  public static SecureDirectoryStream<Path> descend(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    try {
      Optional<BasicFileAttributes> attrs = attributes(dir, name);
      if (attrs.isPresent() && !attrs.get().isDirectory()) {
        throw new PathChanged(
            name + " is " + (attrs.get().isSymbolicLink() ? "a symbolic link" : "not a folder"));
      }
      return dir.newDirectoryStream(name, NOFOLLOW);
    } catch (NoSuchFileException e) {
      throw e;
    } catch (PathChanged e) {
      throw e;
    } catch (IOException e) {
      // ELOOP, ENOTDIR: something that was a folder during the check is not one now.
      throw new PathChanged("the path changed while the call ran: " + e.getMessage());
    } finally {
      dir.close();
    }
  }

  /** Attributes of a child, not following a link; empty when it does not exist. */
  public static Optional<BasicFileAttributes> attributes(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    try {
      return Optional.of(
          dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW).readAttributes());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  public static SeekableByteChannel openRead(Dir dir) throws IOException {
    return dir.stream()
        .newByteChannel(dir.name(), Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
  }

  /**
   * Replaces (or creates) the file atomically: the bytes go to a new sibling, are synced, and the
   * sibling is renamed over the target within the same open folder. Readers see the old content
   * or the new, never a mix; a crash leaves one complete version. A replaced file keeps its mode,
   * owner and group (a 0600 file must not become readable by others); the new content is never
   * readable by others meanwhile.
   */
  public static void writeAtomically(Dir dir, byte[] content, boolean mustNotExist)
      throws IOException {
    writeAtomically(dir, content, mustNotExist, null);
  }

  /**
   * A stranger's content to be kept as a stranger's: {@code source} says whose, {@code file} is
   * the real path of the file written (its folder is the one {@link #openParent} opened).
   */
  public record Mark(Path file, String source) {}

  /**
   * {@link #writeAtomically(Dir, byte[], boolean)}, the new content marked as a stranger's
   * ({@link Provenance#markMade}) before it takes the file's place: there is no moment at which
   * the file holds it unmarked, not even after a crash. Answers whether the mark was written (a
   * file system without extended attributes keeps none); true when none was asked for.
   */
  public static boolean writeAtomically(
      Dir dir, byte[] content, boolean mustNotExist, @org.jspecify.annotations.Nullable Mark mark)
      throws IOException {
    Path tmp = Path.of(".steward-" + UUID.randomUUID() + ".tmp");
    Set<OpenOption> opts = new HashSet<>(
        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
    PosixFileAttributes replaced = posix(dir.stream(), dir.name());
    FileAttribute<?>[] attrs = replaced == null
        ? new FileAttribute<?>[0]
        : new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)};
    try (SeekableByteChannel ch = dir.stream().newByteChannel(tmp, opts, attrs)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(content);
      while (buf.hasRemaining()) ch.write(buf);
      if (ch instanceof java.nio.channels.FileChannel fc) fc.force(true);
      if (replaced != null) keepOwnership(dir.stream(), tmp, replaced);
    } catch (IOException e) {
      deleteQuietly(dir.stream(), tmp);
      throw e;
    }
    // By path, as only a path can carry a mark here: the name is new and random, so a folder
    // swapped since it was opened holds no such file and the mark is simply not written.
    Path folder = mark == null ? null : mark.file().getParent();
    boolean marked =
        mark == null || folder != null && Provenance.markMade(folder.resolve(tmp), mark.source());
    try {
      if (mustNotExist && attributes(dir.stream(), dir.name()).isPresent()) {
        throw new FileAlreadyExistsException(dir.name().toString());
      }
      dir.stream().move(tmp, dir.stream(), dir.name());
    } catch (IOException e) {
      deleteQuietly(dir.stream(), tmp);
      throw e;
    }
    return marked;
  }

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  /** The POSIX attributes of a child, not following links; null when it is absent or the disk has none. */
  private static @org.jspecify.annotations.Nullable PosixFileAttributes posix(
      SecureDirectoryStream<Path> dir, Path name) throws IOException {
    PosixFileAttributeView view =
        dir.getFileAttributeView(name, PosixFileAttributeView.class, NOFOLLOW);
    if (view == null) return null;
    try {
      return view.readAttributes();
    } catch (NoSuchFileException e) {
      return null;
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  /** The replaced file's group, owner (where this process may set them) and mode, on its successor. */
  private static void keepOwnership(
      SecureDirectoryStream<Path> dir, Path name, PosixFileAttributes from) throws IOException {
    PosixFileAttributeView view =
        dir.getFileAttributeView(name, PosixFileAttributeView.class, NOFOLLOW);
    try {
      view.setGroup(from.group());
      view.setOwner(from.owner());
    } catch (IOException e) {
      // Only root may give a file away; a user's own files keep their owner anyway.
    }
    view.setPermissions(from.permissions());
  }

  /**
   * Moves a child of one open folder into another open folder (renameat): atomic, never follows a
   * link, and fails rather than copies when the two are on different file systems.
   */
  public static void move(
      SecureDirectoryStream<Path> fromDir,
      Path fromName,
      SecureDirectoryStream<Path> toDir,
      Path toName)
      throws IOException {
    try {
      fromDir.move(fromName, toDir, toName);
    } catch (java.nio.file.AtomicMoveNotSupportedException e) {
      throw new IOException(
          "cannot move across file systems without copying: " + e.getMessage(), e);
    } catch (IOException e) {
      if (String.valueOf(e.getMessage()).contains("cross-device")) {
        throw new IOException("cannot move across file systems without copying", e);
      }
      throw e;
    }
  }

  /** A child file's bytes, or null when it is longer than {@code max}. */
  public static byte @org.jspecify.annotations.Nullable [] readBounded(Dir dir, int max)
      throws IOException {
    try (SeekableByteChannel ch = openRead(dir)) {
      if (ch.size() > max) return null;
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) ch.size());
      while (buf.hasRemaining() && ch.read(buf) > 0) {
        // reading
      }
      return buf.array();
    }
  }

  /** Opens a folder of Steward's own (the undo area) by descriptor. */
  public static SecureDirectoryStream<Path> openOwn(Path dir) throws IOException {
    return openRoot(dir);
  }

  /** Copies a child file of an open folder to a path of Steward's own, not following links. */
  public static void copyOut(Dir dir, Path target) throws IOException {
    try (SeekableByteChannel in = openRead(dir);
        java.nio.channels.FileChannel out = java.nio.channels.FileChannel.open(
            target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 * 1024);
      while (in.read(buf) > 0) {
        buf.flip();
        while (buf.hasRemaining()) out.write(buf);
        buf.clear();
      }
      out.force(true);
    }
  }

  private static void deleteQuietly(SecureDirectoryStream<Path> dir, Path name) {
    try {
      dir.deleteFile(name);
    } catch (IOException ignored) {
      // best effort: a stray temp file is harmless and named as ours
    }
  }

  private static SecureDirectoryStream<Path> openRoot(Path root) throws IOException {
    DirectoryStream<Path> ds = Files.newDirectoryStream(root);
    if (ds instanceof SecureDirectoryStream<Path> sds) return sds;
    ds.close();
    throw new IOException(
        "this platform cannot open folders by descriptor; file tools are unavailable");
  }
}
