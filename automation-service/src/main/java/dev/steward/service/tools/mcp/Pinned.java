package dev.steward.service.tools.mcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The folders above the sandbox's mounts that a server could rename (their own folder is one the
 * user can write): each becomes a mount point, which cannot be renamed, so a mount stays where
 * Steward and the user's session look for what it covers.
 */
final class Pinned {

  private Pinned() {}

  /** The folders above {@code mounts} whose renaming would move one, the highest first. */
  static List<Path> above(List<Path> mounts) {
    Set<Path> out = new LinkedHashSet<>();
    for (Path m : mounts) {
      Path real = real(m);
      for (Path a = real.getParent(); a != null; a = a.getParent()) {
        Path parent = a.getParent();
        if (parent == null || !Files.isWritable(parent)) break;
        out.add(a);
      }
    }
    List<Path> sorted = new ArrayList<>(out);
    sorted.sort(Comparator.comparingInt(Path::getNameCount));
    return sorted;
  }

  private static Path real(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }
}
