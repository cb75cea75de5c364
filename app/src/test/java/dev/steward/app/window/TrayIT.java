package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.tray.TrayIcon;
import java.awt.MenuItem;
import java.awt.event.ActionEvent;
import java.awt.event.ActionListener;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * On a desktop with a tray (trayer, a freedesktop system tray, on the test display): Steward's
 * icon is there, closing the window keeps Steward running and says how to bring it back, and the
 * icon's Show Steward does. Runs in a JVM of its own where AWT is not headless (Failsafe's "tray"
 * execution; elsewhere, with AWT headless, there is no tray to find).
 */
@EnabledIfSystemProperty(named = "java.awt.headless", matches = "false")
class TrayIT {

  private WindowHarness window;
  private Process trayer;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
    if (trayer != null) trayer.destroy();
  }

  @Test
  void theTrayIconBringsBackAClosedWindow() throws Exception {
    trayer = new ProcessBuilder("trayer", "--edge", "top", "--align", "right", "--height", "24")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    waitForTray();
    window = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    WindowHarness w = window;
    w.waitFor(Duration.ofSeconds(30), () -> w.app.tray() != null);
    TrayIcon icon = w.app.tray();
    assertNotNull(icon.item("Quit Steward"));

    Stage stage = (Stage) w.robot.listTargetWindows().get(0);
    // Not through interact(): the first close shows its note and waits for it (a nested loop).
    javafx.application.Platform.runLater(
        () -> stage.fireEvent(new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST)));
    // The first time, it says how the window comes back.
    w.waitFor(() -> w.robot.lookup(".dialog-pane").tryQuery().isPresent());
    String said = w.robot.lookup(".dialog-pane .content").queryLabeled().getText();
    assertTrue(said.contains("its icon in the tray"), said);
    w.robot.interact(
        () -> ((Stage) w.robot.lookup(".dialog-pane").query().getScene().getWindow()).close());
    w.waitFor(() -> !stage.isShowing());
    assertTrue(w.app.chat().attached(), "Steward still runs");

    MenuItem show = icon.item("Show Steward");
    assertNotNull(show);
    for (ActionListener l : show.getActionListeners())
      l.actionPerformed(new ActionEvent(show, ActionEvent.ACTION_PERFORMED, "Show Steward"));
    w.waitFor(stage::isShowing);
  }

  /** Until the tray host has taken the display's tray selection (it draws a window named so). */
  private static void waitForTray() throws Exception {
    for (int i = 0; i < 100; i++) {
      Process p = new ProcessBuilder("xwininfo", "-root", "-tree")
          .redirectErrorStream(true)
          .start();
      String tree = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      if (tree.contains("panel")) return;
      Thread.sleep(100);
    }
    throw new AssertionError("trayer did not start on the test display");
  }
}
