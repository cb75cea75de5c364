package dev.steward.service.tools.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.service.util.PlaywrightDriver;
import dev.steward.service.util.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where Playwright's driver is unpacked, once and whole, and found again (its sandbox:
 * UnprivilegedIT). An IT: each test unpacks the real driver, ~140 MB forced to disk.
 */
class DriverFolderIT {

  @TempDir
  Path home;

  @Test
  void playwrights_driver_is_unpacked_once_whole_and_what_else_lay_there_goes() throws Exception {
    Path parent = home.resolve("data/browser-driver");
    Path left = Files.createDirectories(parent.resolve("playwright-java-123/package"));
    Files.writeString(left.resolve("cli.js"), "left by Playwright's own unpacking");
    Path older = Files.createDirectories(parent.resolve("playwright-1.0.0-abc/package"));
    Path cut = Files.createDirectories(parent.resolve(".unpacking-9"));
    Files.setLastModifiedTime(cut, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
    Path running = Files.createDirectories(parent.resolve(".unpacking-10"));
    String key = DriverFolder.key();

    Path dir = DriverFolder.unpacked(parent, key);

    assertEquals(parent.resolve("playwright-" + key), dir);
    assertTrue(Files.isExecutable(dir.resolve("node")), "the platform's Node.js");
    assertTrue(Files.isRegularFile(dir.resolve("package/cli.js")));
    assertFalse(Files.exists(left.getParent()), "Playwright's own temporary folder");
    assertFalse(Files.exists(older), "another version's");
    assertFalse(Files.exists(cut), "an unpacking cut short an hour ago or more");
    assertTrue(Files.exists(running), "another process's unpacking under way");
    try (var entries = Files.list(parent)) {
      assertEquals(2, entries.count(), "nothing else is left: the unpacking was renamed whole");
    }

    // found, not unpacked again: what is there stays as it is
    Path mark = Files.writeString(dir.resolve("package/mark"), "kept");
    assertEquals(dir, DriverFolder.unpacked(parent, key));
    assertTrue(Files.exists(mark));

    // a folder that lost its Node.js, or never got its mark, or whose Node.js is not whole (a
    // machine stopped just after), is made again whole
    Files.delete(dir.resolve("node"));
    assertEquals(dir, DriverFolder.unpacked(parent, key));
    assertTrue(DriverFolder.complete(dir));
    assertFalse(Files.exists(mark));
    Files.delete(dir.resolve(".unpacked"));
    assertFalse(DriverFolder.complete(dir));
    assertEquals(dir, DriverFolder.unpacked(parent, key));
    assertTrue(DriverFolder.complete(dir));
    Files.write(dir.resolve("node"), new byte[0]);
    assertFalse(DriverFolder.complete(dir));
    assertEquals(dir, DriverFolder.unpacked(parent, key));
    assertTrue(DriverFolder.complete(dir));
    try (var entries = Files.list(parent)) {
      assertEquals(2, entries.count(), "what was moved aside is gone");
    }
  }

  @Test
  void a_driver_this_jvm_unpacked_is_found_again_when_the_browser_restarts() throws Exception {
    String before = System.clearProperty(PlaywrightDriver.DIR_PROPERTY);
    String parentBefore = System.clearProperty(DriverFolder.PARENT_PROPERTY);
    Path parent = home.resolve("data/browser-driver");
    try {
      Path dir = DriverFolder.use(parent);
      assertEquals(dir.toString(), System.getProperty(PlaywrightDriver.DIR_PROPERTY));
      assertEquals(dir, DriverFolder.use(parent), "named by this JVM: not taken for a shipped one");
      assertTrue(DriverFolder.complete(dir), "and not removed as another's");
      Trees.delete(dir);
      assertEquals(dir, DriverFolder.use(parent));
      assertTrue(DriverFolder.complete(dir), "deleted since, it is unpacked again");
    } finally {
      if (before == null) System.clearProperty(PlaywrightDriver.DIR_PROPERTY);
      else System.setProperty(PlaywrightDriver.DIR_PROPERTY, before);
      if (parentBefore != null) System.setProperty(DriverFolder.PARENT_PROPERTY, parentBefore);
    }
  }

  @Test
  void a_driver_named_at_launch_is_used_as_it_is_and_must_be_there() throws Exception {
    String before = System.getProperty(PlaywrightDriver.DIR_PROPERTY);
    Path parent = home.resolve("data/browser-driver");
    Path left = Files.createDirectories(parent.resolve("playwright-java-123"));
    Path shipped = Files.createDirectories(home.resolve("image/playwright-driver"));
    try {
      System.setProperty(PlaywrightDriver.DIR_PROPERTY, shipped.toString());
      IOException missing = assertThrows(IOException.class, () -> DriverFolder.use(parent));
      assertTrue(missing.getMessage().contains(shipped.toString()), missing.getMessage());
      Path node = Files.writeString(shipped.resolve("node"), "#!/bin/sh\n");
      assertTrue(node.toFile().setExecutable(true));
      assertEquals(shipped, DriverFolder.use(parent));
      assertFalse(Files.exists(left), "what an earlier start left in the data folder goes");
    } finally {
      if (before == null) System.clearProperty(PlaywrightDriver.DIR_PROPERTY);
      else System.setProperty(PlaywrightDriver.DIR_PROPERTY, before);
    }
  }

  @Test
  void the_drivers_key_names_its_version() throws Exception {
    String key = DriverFolder.key();
    assertTrue(key.matches("\\d+\\.\\d+\\.\\d+-[0-9a-f]{12}"), key);
    assertEquals(key, DriverFolder.key());
  }
}
