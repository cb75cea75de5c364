package dev.steward.service.gate;

import dev.steward.service.scope.ResolvedPath;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;

/**
 * How much a destructive call's undo would keep, judged before it runs: what lies at the paths it
 * names (a folder with all in it). An overcount costs a click, never an undo.
 */
final class UndoRoom {

  /** A folder of more entries than this counts as too large to keep beside the others. */
  static final int MOST_ENTRIES = 100_000;

  private UndoRoom() {}

  static long replaced(Collection<ResolvedPath> paths) {
    long sum = 0;
    for (ResolvedPath p : paths) {
      sum = saturated(sum, at(p.real()));
    }
    return sum;
  }

  private static long at(Path real) {
    try {
      BasicFileAttributes a =
          Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) return a.size();
      long[] sum = {0, 0};
      boolean[] unseen = {false};
      Files.walkFileTree(real, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          sum[0] = saturated(sum[0], attrs.size());
          return ++sum[1] > MOST_ENTRIES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          unseen[0] = true;
          return FileVisitResult.TERMINATE;
        }
      });
      return sum[1] > MOST_ENTRIES || unseen[0] ? Long.MAX_VALUE / 2 : sum[0];
    } catch (java.nio.file.NoSuchFileException e) {
      return 0; // a new file: nothing to keep
    } catch (IOException e) {
      return Long.MAX_VALUE / 2; // what cannot be measured counts as too large
    }
  }

  private static long saturated(long a, long b) {
    long s = a + b;
    return s < 0 ? Long.MAX_VALUE / 2 : s;
  }
}
