package dev.steward.service.tools.code;

import dev.steward.service.scope.Provenance;
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
 * named as not undoable when changed, and so is a path another file was moved over (it may hold
 * that file's only copy). A file is the run's own only when both walks saw the whole workspace,
 * and what the run made is taken away only when all it changed can be put back: a file it made
 * may hold the only copy of one it moved or removed.
 */
final class WorkspaceSnapshot {

  static final long KEEP_FILE_BYTES = 4L << 20;
  static final long KEEP_TOTAL_BYTES = 64L << 20;
  static final String ABSENT = "absent";
  /** Entries (files and folders) a walk looks at; past it the walk is incomplete. */
  private static final int MAX_ENTRIES = 20_000;

  private static final int DEPTH = 16;

  /**
   * What a run changed: the paths it wrote and removed, and how to put them back; {@code since}: a
   * moment before the run.
   */
  record Changes(
      Path workspace,
      List<String> written,
      List<String> removed,
      List<String> notUndoable,
      List<UndoRecord.Item> undo,
      Map<String, Integer> modes,
      java.time.Instant since) {}

  /** The most entries {@link #markChanged} looks at; a run that made more spent its own time. */
  private static final int MAX_MARKED = 500_000;

  private record Seen(
      String stamp,
      @Nullable Object key,
      int mode,
      @Nullable String kept) {}

  /** A walk's files by relative path, and whether it saw the whole workspace. */
  private record Walk(Map<String, BasicFileAttributes> files, boolean complete) {}

  private final Path workspace;
  /** A file in the workspace that came from strangers (marked so), relative to it; or null. */
  private final @Nullable String stranger;

  private final Map<String, Seen> before;
  private final boolean beforeComplete;
  /** A moment before the run: change times at or after it are the run's (or later) doing. */
  private final java.time.Instant takenAt;
  /** Where the copies are, when any was made. */
  private final @Nullable Path keptIn;

  private WorkspaceSnapshot(
      Path workspace,
      @Nullable String stranger,
      Map<String, Seen> before,
      boolean beforeComplete,
      @Nullable Path keptIn) {
    this.workspace = workspace;
    this.stranger = stranger;
    this.before = before;
    this.beforeComplete = beforeComplete;
    this.keptIn = keptIn;
    // The file system's times may be coarser than the clock's: a little before, not after.
    this.takenAt = java.time.Instant.now().minusSeconds(2);
  }

  /** Notes every file and copies the small ones into the folder {@code keep} gives (made on first use). */
  static WorkspaceSnapshot take(Path workspace, KeepFolder keep) throws IOException {
    Walk walk = walk(workspace);
    Map<String, Seen> seen = new LinkedHashMap<>();
    long kept = 0;
    int n = 0;
    Path folder = null;
    String stranger = null;
    for (Map.Entry<String, BasicFileAttributes> e : walk.files().entrySet()) {
      BasicFileAttributes a = e.getValue();
      if (stranger == null && a.isRegularFile() && Provenance.marked(workspace.resolve(e.getKey())))
        stranger = e.getKey();
      String copy = null;
      if (a.isRegularFile() && a.size() <= KEEP_FILE_BYTES && kept + a.size() <= KEEP_TOTAL_BYTES) {
        if (folder == null) folder = keep.folder();
        if (copyOut(workspace, e.getKey(), a.size(), folder.resolve("before-" + n))) {
          copy = "before-" + n++;
          kept += a.size();
        }
      }
      seen.put(
          e.getKey(), new Seen(stamp(a), a.fileKey(), mode(workspace.resolve(e.getKey())), copy));
    }
    // A marked file past what the walk saw (deeper, or past its count, or in a folder it could
    // not read) is unknown: the run may read it, so the workspace counts as holding one.
    if (stranger == null && !walk.complete()) {
      stranger = "files past the " + MAX_ENTRIES + " entries and " + DEPTH
          + " folders deep that are looked at";
    }
    return new WorkspaceSnapshot(workspace, stranger, seen, walk.complete(), folder);
  }

  /**
   * Marks as {@code source}'s every file whose change time is the run's, wherever it lies: a run
   * that hid what it wrote (deeper than the walk goes, past its count, or rewritten in place with
   * its size and modification time put back) would otherwise leave it unmarked for a later
   * conversation to read as the user's. Its status change time is what a run cannot set back.
   */
  static void markChanged(Changes changes, String source) {
    Set<String> marked = new HashSet<>(changes.written()); // marked already, by their stamps
    int[] seen = {0};
    try {
      Files.walkFileTree(
          changes.workspace(),
          EnumSet.noneOf(FileVisitOption.class),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes a) {
              return ++seen[0] > MAX_MARKED ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
              if (++seen[0] > MAX_MARKED) return FileVisitResult.TERMINATE;
              if (!a.isRegularFile()) return FileVisitResult.CONTINUE;
              if (marked.contains(changes.workspace().relativize(file).toString())) {
                return FileVisitResult.CONTINUE;
              }
              try {
                java.nio.file.attribute.FileTime changed = (java.nio.file.attribute.FileTime)
                    Files.getAttribute(file, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
                if (changed.toInstant().compareTo(changes.since()) >= 0) {
                  Provenance.markMade(file, source);
                }
              } catch (IOException | UnsupportedOperationException | ClassCastException e) {
                Provenance.markMade(file, source); // its time unread: counted as the run's
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // unreadable here is unreadable to every tool
            }
          });
    } catch (IOException e) {
      // what was marked stays marked
    }
  }

  /**
   * A file the run can read that came from strangers (moved out of Downloads, or downloaded by a
   * browser), relative to the workspace: what the run prints may be that stranger's words.
   */
  java.util.Optional<String> fromStrangers() {
    return java.util.Optional.ofNullable(stranger);
  }

  /** The call's undo folder, asked for only when there is something to keep. */
  @FunctionalInterface
  interface KeepFolder {
    Path folder() throws IOException;
  }

  /**
   * Compares the workspace with how the run found it, and drops the copies of what the run left
   * alone.
   */
  Changes compare() {
    Walk walk;
    try {
      walk = walk(workspace);
    } catch (IOException e) {
      walk = new Walk(Map.of(), false);
    }
    Map<String, BasicFileAttributes> after = walk.files();
    boolean whole = beforeComplete && walk.complete();
    // Where each file was found before, by its file key: a path that now holds another path's
    // file had that file moved over it, and may hold its only copy.
    Map<Object, String> placesBefore = new java.util.HashMap<>();
    before.forEach((rel, seen) -> {
      if (seen.key() != null) placesBefore.putIfAbsent(seen.key(), rel);
    });
    List<String> written = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> notUndoable = new ArrayList<>();
    List<UndoRecord.Item> restores = new ArrayList<>();
    List<UndoRecord.Item> made = new ArrayList<>();
    Map<String, Integer> modes = new LinkedHashMap<>();
    Set<String> keptNeeded = new HashSet<>();
    for (Map.Entry<String, BasicFileAttributes> e : after.entrySet()) {
      String rel = e.getKey();
      BasicFileAttributes a = e.getValue();
      Seen was = before.get(rel);
      if (was != null && was.stamp().equals(stamp(a))) continue;
      written.add(rel);
      String original = workspace.resolve(rel).toString();
      String from = a.fileKey() == null ? null : placesBefore.get(a.fileKey());
      boolean movedOver = was != null && from != null && !from.equals(rel);
      if (was != null && was.kept() != null && !movedOver) {
        keptNeeded.add(was.kept());
        restores.add(
            new UndoRecord.Item(original, null, was.kept(), stampOrAbsent(workspace.resolve(rel))));
        modes.put(original, was.mode());
      } else if (was == null && whole) {
        made.add(new UndoRecord.Item(original, null, null, stampOrAbsent(workspace.resolve(rel))));
      } else {
        notUndoable.add(rel);
      }
    }
    for (Map.Entry<String, Seen> e : before.entrySet()) {
      if (after.containsKey(e.getKey())) continue;
      Path path = workspace.resolve(e.getKey());
      // Past what the walk saw, a path is looked at on its own.
      if (!walk.complete() && Files.exists(path, LinkOption.NOFOLLOW_LINKS)) continue;
      removed.add(e.getKey());
      String kept = e.getValue().kept();
      if (kept != null) {
        keptNeeded.add(kept);
        restores.add(new UndoRecord.Item(path.toString(), null, kept, ABSENT));
        modes.put(path.toString(), e.getValue().mode());
      } else {
        notUndoable.add(e.getKey());
      }
    }
    // What the run made is taken away only when all it changed can be put back: otherwise a
    // file it made may hold the only copy of one it removed (cp big.bin x; rm big.bin).
    List<UndoRecord.Item> undo = new ArrayList<>(restores);
    if (notUndoable.isEmpty()) undo.addAll(made);
    if (keptIn != null) settle(keptIn, keptNeeded);
    return new Changes(workspace, written, removed, notUndoable, undo, modes, takenAt);
  }

  /** Drops every copy: the run did not happen. */
  void discard() {
    if (keptIn != null) settle(keptIn, Set.of());
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

  /**
   * Copies at most the size the walk saw, read without following links; a stranger's file's copy
   * carries its mark, so that the undo that puts it back marks it again.
   */
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
      if (Provenance.marked(path.real())) Provenance.markMade(target, "a stranger's file, kept");
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
