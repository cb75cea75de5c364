package dev.steward.service.tools.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which Chromium runs (where its driver lies: DriverFolderIT; its sandbox: UnprivilegedIT). */
class BrowserLaunchTest {

  @TempDir
  Path home;

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
