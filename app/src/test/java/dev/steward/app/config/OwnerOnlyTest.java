package dev.steward.app.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steward.app.history.HistoryStore;
import dev.steward.app.instance.SingleInstance;
import dev.steward.protocol.home.StewardPlaces;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The window's folders are the owner's alone, whichever part of the window makes them first. */
class OwnerOnlyTest {

  @TempDir
  Path dir;

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void stewardsFoldersAndTheFoldersMadeAboveThemAreTheOwnersAlone() throws Exception {
    StewardPlaces places = StewardPlaces.under(dir.resolve("home"), dir);
    OwnerOnly.folders(places);
    for (Path p : new Path[] {dir.resolve("home"), places.config(), places.data(), places.run()})
      assertEquals("rwx------", mode(p), p.toString());
  }

  @Test
  void aFolderThatWasOpenToOthersIsClosed() throws Exception {
    Path data = Files.createDirectory(dir.resolve("data"));
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
    OwnerOnly.folder(data);
    assertEquals("rwx------", mode(data));
  }

  @Test
  void theHistoryAndTheWindowsLockMakeTheirFoldersTheOwnersAlone() throws Exception {
    Path data = dir.resolve("h/data");
    try (HistoryStore store = HistoryStore.open(data)) {
      assertEquals("rwx------", mode(data));
      assertEquals("rwx------", mode(dir.resolve("h")));
    }
    Path run = dir.resolve("r/run");
    try (SingleInstance held = SingleInstance.claim(run).orElseThrow()) {
      assertEquals("rwx------", mode(run));
    }
  }
}
