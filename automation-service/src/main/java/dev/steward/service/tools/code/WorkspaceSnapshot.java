package dev.steward.service.tools.code;

import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The workspace as a run found it, and what the run changed. Each file is known by its size, time
 * and file key; each small one is copied first into the call's undo folder, so that what a run
 * overwrote or removed can be put back ({@code tool.undo}) with the mode it had; larger ones are
 * named as not undoable when changed. A file is taken to be the run's own only when both walks saw
 * the whole workspace and it is not one of the files found before under another name (moved or
 * linked: the user's). Set-user-ID
 * and set-group-ID bits are removed: as root from every file of the workspace (the sandbox's files
 * belong to root outside it), otherwise from what the run wrote.
 */
final class WorkspaceSnapshot {

  static final long KEEP_FILE_BYTES = 4L << 20;
  static final long KEEP_TOTAL_BYTES = 64L << 20;
  static final String ABSENT = "absent";
  /** Entries (files and folders) a walk looks at; past it the walk is incomplete. */
  private static final int MAX_ENTRIES = 20_000;

  private static final int DEPTH = 16;
  /** The set-ID sweep as root goes as deep as the tree, over at most this many entries. */
  private static final int SWEEP_ENTRIES = 200_000;

  private static final int SET_ID_BITS = 06000;

  /** What a run changed: the paths it wrote and removed, and how to put them back. */
  record Changes(
      Path workspace,
      List<String> written,
      List<String> removed,
      List<String> notUndoable,
      List<UndoRecord.Item> undo,
      Map<String, Integer> modes) {}

  private record Seen(String stamp, int mode, @Nullable String kept) {}

  /** A walk's files by relative path, and whether it saw the whole workspace. */
  private record Walk(Map<String, BasicFileAttributes> files, boolean complete) {}

  private final Path workspace;
  private final Map<String, Seen> before;
  private final boolean beforeComplete;
  /** Where the copies are, when any was made. */
  private final @Nullable Path keptIn;

  private WorkspaceSnapshot(
      Path workspace, Map<String, Seen> before, boolean beforeComplete, @Nullable Path keptIn) {
    this.workspace = workspace;
    this.before = before;
    this.beforeComplete = beforeComplete;
    this.keptIn = keptIn;
  }

  /** Notes every file and copies the small ones into the folder {@code keep} gives (made on first use). */
  static WorkspaceSnapshot take(Path workspace, KeepFolder keep) throws IOException {
    Walk walk = walk(workspace);
    Map<String, Seen> seen = new LinkedHashMap<>();
    long kept = 0;
    int n = 0;
    Path folder = null;
    for (Map.Entry<String, BasicFileAttributes> e : walk.files().entrySet()) {
      BasicFileAttributes a = e.getValue();
      String copy = null;
      if (a.isRegularFile() && a.size() <= KEEP_FILE_BYTES && kept + a.size() <= KEEP_TOTAL_BYTES) {
        if (folder == null) folder = keep.folder();
        if (copyOut(workspace, e.getKey(), a.size(), folder.resolve("before-" + n))) {
          copy = "before-" + n++;
          kept += a.size();
        }
      }
      seen.put(e.getKey(), new Seen(stamp(a), mode(workspace.resolve(e.getKey())), copy));
    }
    return new WorkspaceSnapshot(workspace, seen, walk.complete(), folder);
  }

  /** The call's undo folder, asked for only when there is something to keep. */
  @FunctionalInterface
  interface KeepFolder {
    Path folder() throws IOException;
  }

  /**
   * Compares the workspace with how the run found it, removes set-ID bits, and drops the copies of
   * what the run left alone.
   */
  Changes compare() {
    if (Sandbox.root()) sweepSetIdBits(workspace);
    Walk walk;
    try {
      walk = walk(workspace);
    } catch (IOException e) {
      walk = new Walk(Map.of(), false);
    }
    Map<String, BasicFileAttributes> after = walk.files();
    boolean whole = beforeComplete && walk.complete();
    // A file moved or linked keeps its size, time and file key; a new file that got the number
    // of one the run removed has a new time.
    Set<String> stampsBefore = new HashSet<>();
    before.values().forEach(s -> stampsBefore.add(s.stamp()));
    List<String> written = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> notUndoable = new ArrayList<>();
    List<UndoRecord.Item> undo = new ArrayList<>();
    Map<String, Integer> modes = new LinkedHashMap<>();
    Set<String> keptNeeded = new HashSet<>();
    for (Map.Entry<String, BasicFileAttributes> e : after.entrySet()) {
      String rel = e.getKey();
      BasicFileAttributes a = e.getValue();
      Seen was = before.get(rel);
      if (was != null && was.stamp().equals(stamp(a))) continue;
      written.add(rel);
      if (!Sandbox.root()) clearSetIdBits(workspace.resolve(rel), a);
      String afterStamp = stampOrAbsent(workspace.resolve(rel));
      String original = workspace.resolve(rel).toString();
      if (was != null && was.kept() != null) {
        keptNeeded.add(was.kept());
        undo.add(new UndoRecord.Item(original, null, was.kept(), afterStamp));
        modes.put(original, was.mode());
      } else if (was == null && whole && !stampsBefore.contains(stamp(a))) {
        undo.add(new UndoRecord.Item(original, null, null, afterStamp));
      } else {
        notUndoable.add(rel);
      }
    }
    for (Map.Entry<String, Seen> e : before.entrySet()) {
      if (after.containsKey(e.getKey()) || !walk.complete()) continue;
      removed.add(e.getKey());
      String kept = e.getValue().kept();
      String original = workspace.resolve(e.getKey()).toString();
      if (kept != null) {
        keptNeeded.add(kept);
        undo.add(new UndoRecord.Item(original, null, kept, ABSENT));
        modes.put(original, e.getValue().mode());
      } else {
        notUndoable.add(e.getKey());
      }
    }
    if (keptIn != null) settle(keptIn, keptNeeded);
    return new Changes(workspace, written, removed, notUndoable, undo, modes);
  }

  /** Copies no longer needed go; the ones an undo needs are made durable. */
  private void settle(Path folder, Set<String> needed) {
    for (Seen s : before.values()) {
      String kept = s.kept();
      if (kept == null) continue;
      Path copy = folder.resolve(kept);
      try {
        if (needed.contains(kept)) {
          try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.force(true);
          }
        } else {
          Files.deleteIfExists(copy);
        }
      } catch (IOException e) {
        // an undo that finds no copy says so; a stray copy goes with the call's undo folder
      }
    }
  }

  /** A file's identity for this comparison: size, time (to the nanosecond) and file key. */
  static String stamp(BasicFileAttributes a) {
    return "stamp:" + a.size() + "@" + a.lastModifiedTime().to(TimeUnit.NANOSECONDS) + "@"
        + a.fileKey();
  }

  static String stampOrAbsent(Path path) {
    try {
      return stamp(
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return ABSENT;
    }
  }

  /** Copies at most the size the walk saw, read without following links. */
  private static boolean copyOut(Path workspace, String rel, long size, Path target) {
    ResolvedPath path = new ResolvedPath(rel, workspace.resolve(rel), workspace);
    try (SafeFs.Dir dir = SafeFs.openParent(path);
        SeekableByteChannel in = SafeFs.openRead(dir);
        FileChannel out =
            FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
      long left = size;
      while (left > 0) {
        buf.clear().limit((int) Math.min(buf.capacity(), left));
        int n = in.read(buf);
        if (n < 0) break;
        buf.flip();
        while (buf.hasRemaining()) out.write(buf);
        left -= n;
      }
      return true;
    } catch (IOException e) {
      try {
        Files.deleteIfExists(target);
      } catch (IOException ignored) {
        // the call's undo folder goes as a whole
      }
      return false;
    }
  }

  private static int mode(Path file) {
    try {
      return (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
    } catch (IOException | UnsupportedOperationException | ClassCastException e) {
      return 0644;
    }
  }

  /** As root: every regular file of the workspace, however deep, loses its set-ID bits. */
  private static void sweepSetIdBits(Path workspace) {
    int[] seen = {0};
    try {
      Files.walkFileTree(
          workspace,
          EnumSet.noneOf(FileVisitOption.class),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
              if (++seen[0] > SWEEP_ENTRIES) return FileVisitResult.TERMINATE;
              clearSetIdBits(file, a);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // what could not be walked could not be written by a run either
    }
  }

  private static void clearSetIdBits(Path file, BasicFileAttributes a) {
    if (!a.isRegularFile()) return;
    int mode = mode(file);
    if ((mode & SET_ID_BITS) == 0) return;
    try {
      // Setting the nine permission bits clears the set-ID bits; a link is refused, not followed.
      Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(permissions(mode));
    } catch (IOException | UnsupportedOperationException e) {
      // not a POSIX file system: it has no set-ID bits either
    }
  }

  static Set<PosixFilePermission> permissions(int mode) {
    PosixFilePermission[] order = {
      PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
      PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
      PosixFilePermission.OWNER_READ
    };
    Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
    for (int bit = 0; bit < order.length; bit++)
      if ((mode & (1 << bit)) != 0) perms.add(order[bit]);
    return perms;
  }

  /** The workspace's files (and links) by path relative to it, up to a bound. */
  private static Walk walk(Path workspace) throws IOException {
    Map<String, BasicFileAttributes> out = new LinkedHashMap<>();
    boolean[] complete = {true};
    int[] entries = {0};
    Files.walkFileTree(
        workspace, EnumSet.noneOf(FileVisitOption.class), DEPTH, new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
            return count();
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
            // A folder met here is one the depth limit keeps the walk out of.
            if (a.isDirectory()) {
              complete[0] = false;
              return FileVisitResult.CONTINUE;
            }
            out.put(workspace.relativize(file).toString(), a);
            return count();
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            complete[0] = false;
            return FileVisitResult.CONTINUE;
          }

          private FileVisitResult count() {
            if (++entries[0] <= MAX_ENTRIES) return FileVisitResult.CONTINUE;
            complete[0] = false;
            return FileVisitResult.TERMINATE;
          }
        });
    return new Walk(out, complete[0]);
  }
}
