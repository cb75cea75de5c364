package dev.steward.service.tools.files;

import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/** Creating folders inside a root, one component at a time, re-checking each step. */
final class Folders {

  private Folders() {}

  /**
   * What {@link #ensure} would meet now, changing nothing: a part in the way that is not a folder
   * throws {@link NotDirectoryException}, as making the folders would.
   */
  static void check(ResolvedPath target, boolean includeLast) throws IOException {
    walk(target, includeLast, false);
  }

  /**
   * Makes sure every folder from the root down to {@code target} (inclusive when {@code includeLast})
   * exists. Each existing part is entered by descriptor without following links; only a missing
   * part is created (Java has no mkdirat, so creation goes by path right after its parent was
   * checked). Answers whether anything was created.
   */
  static boolean ensure(ResolvedPath target, boolean includeLast) throws IOException {
    return walk(target, includeLast, true);
  }

  /** The parts down to the target; a missing one is made ({@code make}) or ends the walk. */
  private static boolean walk(ResolvedPath target, boolean includeLast, boolean make)
      throws IOException {
    Path rel = target.relative();
    int count = rel.toString().isEmpty() ? 0 : rel.getNameCount() - (includeLast ? 0 : 1);
    boolean created = false;
    SecureDirectoryStream<Path> dir =
        (SecureDirectoryStream<Path>) Files.newDirectoryStream(target.root());
    Path real = target.root();
    try {
      for (int i = 0; i < count; i++) {
        Path name = rel.getName(i);
        Optional<BasicFileAttributes> attrs = SafeFs.attributes(dir, name);
        if (attrs.isEmpty()) {
          if (!make) return false; // from here on, all would be made
          try {
            Files.createDirectory(real.resolve(name.toString()));
            created = true;
          } catch (FileAlreadyExistsException e) {
            // created concurrently: fine if it is a folder, which descend checks
          }
        } else if (!attrs.get().isDirectory()) {
          throw new NotDirectoryException(real.resolve(name.toString()).toString());
        }
        dir = SafeFs.descend(dir, name);
        real = real.resolve(name.toString());
      }
    } finally {
      dir.close();
    }
    return created;
  }
}
