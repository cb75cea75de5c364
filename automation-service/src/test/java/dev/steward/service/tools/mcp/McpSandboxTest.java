package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stdio server in bubblewrap cannot uncover Steward's hidden folders, nor write where programs
 * run from later, not even as root; it writes the user's other files.
 */
class McpSandboxTest {

  @TempDir
  Path dir;

  @Test
  void aServerCannotUnmountWhatHidesStewardsSecrets() throws Exception {
    Path config = Files.createDirectories(dir.resolve("config"));
    Files.writeString(config.resolve("ui.secret"), "the-window-secret");
    Path own = Files.createDirectories(dir.resolve("server"));
    Sandbox sandbox = Sandbox.find(List.of(config), () -> new RunPlaces(List.of()));
    assertTrue(sandbox.available(), "the tests need bubblewrap (./steward test installs it)");
    // Also through the service's own /proc entry, whose root is the machine's as the service sees
    // it.
    long service = ProcessHandle.current().pid();
    String attack = "cat /proc/" + service + "/root" + config + "/ui.secret 2>/dev/null;"
        + " ls /proc | grep -qx " + service + " && echo SEES-THE-SERVICE;"
        + " cat " + config + "/ui.secret 2>/dev/null; umount " + config
        + " 2>/dev/null; cat " + config + "/ui.secret 2>/dev/null;"
        + " unshare -rm sh -c 'umount " + config + "; cat " + config + "/ui.secret' 2>/dev/null;"
        // The folder above, renamed, would take the mount along: Steward's own place is then free.
        + " mv " + dir + " " + dir + "-moved 2>/dev/null && mkdir -p " + config
        + " && echo attacker > " + config + "/ui.secret;"
        + " echo end";
    Process p = new ProcessBuilder(sandbox.wrap(List.of("/bin/sh", "-c", attack), own))
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    assertFalse(out.contains("the-window-secret"), out);
    assertFalse(out.contains("SEES-THE-SERVICE"), out);
    assertEquals("end\n", out.substring(out.length() - 4), out);
    assertEquals("the-window-secret", Files.readString(config.resolve("ui.secret")));
  }

  @Test
  void aServerCannotLeaveAProgramThatRunsLaterOutsideItsSandbox() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path chrome =
        Files.createDirectories(home.resolve(".cache/ms-playwright/chromium-1181/chrome-linux"));
    Files.writeString(home.resolve(".bashrc"), "# the user's\n");
    Path bin = Files.createDirectories(home.resolve("tools/bin"));
    Path checkout = Files.createDirectories(dir.resolve("checkout"));
    Files.writeString(checkout.resolve("steward"), "#!/bin/sh\n");
    Files.writeString(checkout.resolve("pom.xml"), "<project/>");
    Path classes = Files.createDirectories(checkout.resolve("service/target/classes"));
    Path documents = Files.createDirectories(home.resolve("Documents"));
    Path driver = Files.createDirectories(dir.resolve("image/lib/app/playwright-driver"));
    RunPlaces places = RunPlaces.of(
        home,
        Map.of("PATH", bin + ":/usr/bin"),
        classes.toString(),
        dir.resolve("no-jdk"),
        List.of(driver));
    assertTrue(places.paths().contains(checkout.toRealPath()), places.toString());
    assertTrue(places.paths().contains(bin.toRealPath()), places.toString());
    assertTrue(places.paths().contains(driver.toRealPath()), places.toString());
    Sandbox sandbox =
        Sandbox.find(List.of(Files.createDirectories(dir.resolve("config"))), () -> places);
    Path own = Files.createDirectories(dir.resolve("server"));
    String attack = "for f in " + chrome + "/chrome " + home + "/.bashrc " + bin + "/notify-send "
        + checkout + "/steward " + classes + "/Main.class " + driver
        + "/node; do (echo planted > $f) 2>/dev/null; done;"
        + " unshare -rm sh -c 'mount -o remount,bind,rw " + home + "/.bashrc && echo planted > "
        + home + "/.bashrc' 2>/dev/null;"
        // Renamed, a folder above a kept place would free its name for the server's own.
        + " (mv " + home + "/.cache " + home + "/.c && mkdir -p " + chrome + " && echo planted > "
        + chrome + "/chrome) 2>/dev/null;"
        + " (mv " + checkout + " " + checkout + "-moved && mkdir -p " + checkout
        + " && echo planted > " + checkout + "/steward) 2>/dev/null;"
        + " echo mine > " + documents + "/note.txt; echo end";
    Process p = new ProcessBuilder(sandbox.wrap(List.of("/bin/sh", "-c", attack), own))
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    assertEquals("end\n", out, out);
    assertFalse(Files.exists(chrome.resolve("chrome")));
    assertFalse(Files.exists(bin.resolve("notify-send")));
    assertFalse(Files.exists(classes.resolve("Main.class")));
    assertFalse(Files.exists(driver.resolve("node")), "the driver a package ships");
    assertEquals("# the user's\n", Files.readString(home.resolve(".bashrc")));
    assertEquals("#!/bin/sh\n", Files.readString(checkout.resolve("steward")));
    assertEquals("mine\n", Files.readString(documents.resolve("note.txt")));
  }
}
