package dev.steward.service.tools.code;

import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The workspace as a run found it, and what the run changed. Each file is known by its size, time
 * and file key; each small one is copied first into the call's undo folder, so that what a run
 * overwrote or removed can be put back ({@code tool.undo}); larger ones are named as not
 * undoable when changed. Set-user-ID and set-group-ID bits are removed from what a run wrote: as
 * root, the sandbox's files belong to root outside it.
 */
final class WorkspaceSnapshot {

  static final long KEEP_FILE_BYTES = 4L << 20;
  static final long KEEP_TOTAL_BYTES = 64L << 20;
  static final String ABSENT = "absent";
  private static final int MAX_FILES = 20_000;
  private static final int DEPTH = 8;
  private static final int SET_ID_BITS = 06000;

  /** What a run changed: the paths it wrote and removed, and how to put them back. */
  record Changes(
      Path workspace,
      List<String> written,
      List<String> removed,
      List<String> notUndoable,
      List<UndoRecord.Item> undo) {}

  private record Seen(String stamp, @Nullable String kept) {}

  private final Path workspace;
  private final Map<String, Seen> before;
  /** Where the copies are, when any was made. */
  private final @Nullable Path keptIn;

  private WorkspaceSnapshot(Path workspace, Map<String, Seen> before, @Nullable Path keptIn) {
    this.workspace = workspace;
    this.before = before;
    this.keptIn = keptIn;
  }

  /** Notes every file and copies the small ones into the folder {@code keep} gives (made on first use). */
  static WorkspaceSnapshot take(Path workspace, KeepFolder keep) throws IOException {
    Map<String, BasicFileAttributes> files = walk(workspace);
    Map<String, Seen> seen = new LinkedHashMap<>();
    long kept = 0;
    int n = 0;
    Path folder = null;
    for (Map.Entry<String, BasicFileAttributes> e : files.entrySet()) {
      BasicFileAttributes a = e.getValue();
      String copy = null;
      if (a.isRegularFile() && a.size() <= KEEP_FILE_BYTES && kept + a.size() <= KEEP_TOTAL_BYTES) {
        if (folder == null) folder = keep.folder();
        if (copyOut(workspace, e.getKey(), folder.resolve("before-" + n))) {
          copy = "before-" + n++;
          kept += a.size();
        }
      }
      seen.put(e.getKey(), new Seen(stamp(a), copy));
    }
    return new WorkspaceSnapshot(workspace, seen, folder);
  }

  /** The call's undo folder, asked for only when there is something to keep. */
  @FunctionalInterface
  interface KeepFolder {
    Path folder() throws IOException;
  }

  /**
   * Compares the workspace with how the run found it, removes set-ID bits from what it wrote, and
   * drops the copies of what it left alone.
   */
  Changes compare() {
    Map<String, BasicFileAttributes> after;
    try {
      after = walk(workspace);
    } catch (IOException e) {
      after = Map.of();
    }
    List<String> written = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> notUndoable = new ArrayList<>();
    List<UndoRecord.Item> undo = new ArrayList<>();
    Set<String> keptNeeded = new java.util.HashSet<>();
    for (Map.Entry<String, BasicFileAttributes> e : after.entrySet()) {
      String rel = e.getKey();
      String now = stamp(e.getValue());
      Seen was = before.get(rel);
      if (was != null && was.stamp().equals(now)) continue;
      written.add(rel);
      clearSetIdBits(workspace.resolve(rel), e.getValue());
      String afterStamp = stampOrAbsent(workspace.resolve(rel));
      if (was == null) {
        undo.add(new UndoRecord.Item(workspace.resolve(rel).toString(), null, null, afterStamp));
      } else if (was.kept() != null) {
        keptNeeded.add(was.kept());
        undo.add(
            new UndoRecord.Item(workspace.resolve(rel).toString(), null, was.kept(), afterStamp));
      } else {
        notUndoable.add(rel);
      }
    }
    for (Map.Entry<String, Seen> e : before.entrySet()) {
      if (after.containsKey(e.getKey())) continue;
      removed.add(e.getKey());
      String kept = e.getValue().kept();
      if (kept != null) {
        keptNeeded.add(kept);
        undo.add(new UndoRecord.Item(workspace.resolve(e.getKey()).toString(), null, kept, ABSENT));
      } else {
        notUndoable.add(e.getKey());
      }
    }
    if (keptIn != null) settle(keptIn, keptNeeded);
    return new Changes(workspace, written, removed, notUndoable, undo);
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

  private static boolean copyOut(Path workspace, String rel, Path target) {
    ResolvedPath path = new ResolvedPath(rel, workspace.resolve(rel), workspace);
    try (SafeFs.Dir dir = SafeFs.openParent(path);
        SeekableByteChannel in = SafeFs.openRead(dir);
        FileChannel out =
            FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      out.transferFrom(in, 0, Long.MAX_VALUE);
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

  private static void clearSetIdBits(Path file, BasicFileAttributes a) {
    if (!a.isRegularFile()) return;
    try {
      int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      if ((mode & SET_ID_BITS) == 0) return;
      Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
      PosixFilePermission[] order = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE,
        PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
        PosixFilePermission.OWNER_READ
      };
      for (int bit = 0; bit < order.length; bit++)
        if ((mode & (1 << bit)) != 0) perms.add(order[bit]);
      // Setting the nine permission bits clears the set-ID bits; a link is refused, not followed.
      Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(perms);
    } catch (IOException | UnsupportedOperationException | ClassCastException e) {
      // not a POSIX file system: it has no set-ID bits either
    }
  }

  /** The workspace's files (and links) by path relative to it, up to a bound. */
  private static Map<String, BasicFileAttributes> walk(Path workspace) throws IOException {
    Map<String, BasicFileAttributes> out = new LinkedHashMap<>();
    Files.walkFileTree(
        workspace, EnumSet.noneOf(FileVisitOption.class), DEPTH, new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
            if (out.size() >= MAX_FILES) return FileVisitResult.TERMINATE;
            if (!a.isDirectory()) out.put(workspace.relativize(file).toString(), a);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
          }
        });
    return out;
  }
}
