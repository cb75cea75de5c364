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

/** A stdio server in bubblewrap cannot uncover Steward's hidden folders, not even as root. */
class McpSandboxTest {

  @TempDir
  Path dir;

  @Test
  void aServerCannotUnmountWhatHidesStewardsSecrets() throws Exception {
    Path config = Files.createDirectories(dir.resolve("config"));
    Files.writeString(config.resolve("ui.secret"), "the-window-secret");
    Path own = Files.createDirectories(dir.resolve("server"));
    Sandbox sandbox = Sandbox.find(Map.of("PATH", "/usr/bin:/bin"), List.of(config));
    assertTrue(sandbox.available(), "the tests need bubblewrap (./steward test installs it)");
    // Also through the service's own /proc entry, whose root is the machine's as the service sees
    // it.
    long service = ProcessHandle.current().pid();
    String attack = "cat /proc/" + service + "/root" + config + "/ui.secret 2>/dev/null;"
        + " ls /proc | grep -qx " + service + " && echo SEES-THE-SERVICE;"
        + " cat " + config + "/ui.secret 2>/dev/null; umount " + config
        + " 2>/dev/null; cat " + config + "/ui.secret 2>/dev/null;"
        + " unshare -rm sh -c 'umount " + config + "; cat " + config + "/ui.secret' 2>/dev/null;"
        + " echo end";
    Process p = new ProcessBuilder(sandbox.wrap(List.of("/bin/sh", "-c", attack), own))
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    assertFalse(out.contains("the-window-secret"), out);
    assertFalse(out.contains("SEES-THE-SERVICE"), out);
    assertEquals("end\n", out.substring(out.length() - 4), out);
  }
}
