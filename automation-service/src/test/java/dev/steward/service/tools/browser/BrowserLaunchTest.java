package dev.steward.service.tools.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which Chromium runs, and where its driver is unpacked (its sandbox: UnprivilegedIT). */
class BrowserLaunchTest {

  @TempDir
  Path home;

  @Test
  void playwrights_driver_is_unpacked_in_stewards_data_folder_and_what_a_killed_service_left_goes()
      throws Exception {
    String before = System.clearProperty(BrowserSession.DRIVER_DIR_PROPERTY);
    try {
      Path driver = home.resolve("data/browser-driver");
      Path left = Files.createDirectories(driver.resolve("playwright-java-123/package"));
      Files.writeString(left.resolve("cli.js"), "left");
      assertEquals(driver, BrowserSession.useDriverDir(driver));
      assertEquals(driver.toString(), System.getProperty(BrowserSession.DRIVER_DIR_PROPERTY));
      assertFalse(Files.exists(driver.resolve("playwright-java-123")));
      // once named, the JVM's driver stays where it is
      assertEquals(driver, BrowserSession.useDriverDir(home.resolve("elsewhere")));
    } finally {
      if (before == null) System.clearProperty(BrowserSession.DRIVER_DIR_PROPERTY);
      else System.setProperty(BrowserSession.DRIVER_DIR_PROPERTY, before);
    }
  }

  @Test
  void playwrights_newest_revision_is_chosen_by_its_number_not_its_spelling() throws Exception {
    Path cache = home.resolve(".cache/ms-playwright");
    Files.createDirectories(cache.resolve("chromium-999"));
    Files.createDirectories(cache.resolve("chromium-1181"));
    Files.createDirectories(cache.resolve("chromium-latest"));
    var found = BrowserLocator.candidates(Map.of(), home, "Linux");
    int newest = found.indexOf(cache.resolve("chromium-1181/chrome-linux/chrome"));
    assertEquals(found.indexOf(cache.resolve("chromium-999/chrome-linux/chrome")), newest + 1);
    assertTrue(
        found.indexOf(Path.of("/usr/bin/chromium")) < newest,
        "the system's browser first: " + found);
    assertTrue(found.indexOf(Path.of("/snap/bin/chromium")) > newest, "a snap's last: " + found);
  }
}
