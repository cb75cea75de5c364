package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The global hotkey through the real X server (Xvfb, from ./steward test's xvfb-run): xdotool
 * presses the combination, jnativehook hears it, and the window hides and comes back.
 */
class HotkeyIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  private static void press(String keys) throws Exception {
    Process p =
        new ProcessBuilder("xdotool", "key", keys).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "xdotool failed: " + out);
  }

  @Test
  void theKeyCombinationTogglesTheWindow() throws Exception {
    String display = System.getenv("DISPLAY");
    assertNotNull(
        display, "the hotkey test needs an X display: ./steward test runs it under xvfb-run");
    window = WindowHarness.start(
        Files.createTempDirectory("steward-hotkey-"),
        WindowHarness.settings("http://127.0.0.1:9"),
        Map.of("DISPLAY", display));
    WindowHarness w = window;
    w.waitFor(() -> w.app.settings() != null
        && w.app.settings().hotkey().statusProperty().get().contains("shows or hides"));
    Window main = w.robot.listTargetWindows().get(0);
    assertTrue(main.isShowing());
    press("ctrl+alt+space");
    w.waitFor(() -> !main.isShowing());
    press("ctrl+alt+space");
    w.waitFor(main::isShowing);
    press("ctrl+alt+h"); // another combination does nothing
    Thread.sleep(300);
    assertTrue(main.isShowing());

    // Closing the window keeps Steward running, and says so the first time only.
    javafx.application.Platform.runLater(() -> main.fireEvent(
        new javafx.stage.WindowEvent(main, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST)));
    w.waitFor(() -> w.robot.lookup(".dialog-pane").tryQuery().isPresent());
    assertTrue(w.robot
        .lookup(".dialog-pane")
        .queryAs(javafx.scene.control.DialogPane.class)
        .getContentText()
        .contains("keeps running"));
    w.robot.clickOn("OK");
    w.waitFor(() -> !main.isShowing());
    assertTrue(java.nio.file.Files.exists(w.home.resolve("config/told-keeps-running")));
    press("ctrl+alt+space");
    w.waitFor(main::isShowing);
    javafx.application.Platform.runLater(() -> main.fireEvent(
        new javafx.stage.WindowEvent(main, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST)));
    w.waitFor(() -> !main.isShowing());
    assertFalse(w.robot.lookup(".dialog-pane").tryQuery().isPresent(), "told once");
  }
}
