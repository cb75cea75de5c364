package dev.steward.app.config;

import dev.steward.protocol.home.StewardPlaces;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Steward's folders as the window makes them: the owner's alone (0700) where the platform has
 * modes, as the service makes them. Chat history, the service's log and the window's socket are in
 * them; whichever of the two starts first makes the folders, so neither may make them open to
 * others.
 */
public final class OwnerOnly {

  private static final Set<PosixFilePermission> FOLDER =
      PosixFilePermissions.fromString("rwx------");

  private OwnerOnly() {}

  /** Makes Steward's config, data and run folders, each the owner's alone. */
  public static void folders(StewardPlaces places) throws IOException {
    for (Path dir : new Path[] {places.config(), places.data(), places.run()}) folder(dir);
  }

  /**
   * Makes {@code dir} and any missing folder above it, each made here the owner's alone from the
   * start (no moment open to others), and makes {@code dir} itself the owner's alone if it was not.
   */
  public static Path folder(Path dir) throws IOException {
    Path absolute = dir.toAbsolutePath();
    if (!posix()) return Files.createDirectories(absolute);
    Path parent = absolute.getParent();
    if (parent != null && !Files.isDirectory(parent)) folder(parent);
    try {
      Files.createDirectory(absolute, ownerOnly());
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(absolute)) throw e;
    }
    if (!Files.getPosixFilePermissions(absolute).equals(FOLDER))
      Files.setPosixFilePermissions(absolute, FOLDER);
    return absolute;
  }

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  private static FileAttribute<Set<PosixFilePermission>> ownerOnly() {
    return PosixFilePermissions.asFileAttribute(FOLDER);
  }
}
