package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One Steward window per home: a second {@code ./steward} on the same home brings the first
 * window forward and exits, opening nothing (no second window, no "database in use").
 */
class SingleInstanceIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  @Test
  void aSecondStartOnTheSameHomeBringsTheWindowForwardAndExits() throws Exception {
    String display = System.getenv("DISPLAY");
    assertNotNull(
        display, "the second start is a real ./steward: ./steward test runs it under xvfb-run");
    window = WindowHarness.start(
        Files.createTempDirectory("steward-single-"), WindowHarness.settings("http://127.0.0.1:9"));
    WindowHarness w = window;
    Window main = w.robot.listTargetWindows().get(0);
    w.robot.interact(main::hide);
    assertFalse(main.isShowing());

    ProcessBuilder second =
        new ProcessBuilder(WindowHarness.repo().resolve("steward").toString());
    second.environment().put("STEWARD_HOME", w.home.toString());
    second.environment().put("STEWARD_NO_BUILD", "1");
    second
        .environment()
        .put("JAVA_TOOL_OPTIONS", "-Dsteward.warmup.rounds=0 -Duser.home=" + w.userHome);
    second.environment().put("DISPLAY", display);
    second.redirectErrorStream(true);
    Process p = second.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the second start ends by itself: " + out);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("already open on this home"), out);
    assertFalse(out.contains("window shown"), "the second start opens no window: " + out);
    assertFalse(out.toLowerCase(java.util.Locale.ROOT).contains("database"), out);

    w.waitFor(main::isShowing);
    assertEquals(
        1, w.robot.listTargetWindows().stream().filter(Window::isShowing).count());
  }
}
