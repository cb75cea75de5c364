package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.TabPane;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The window at its smallest useful size: every control says all of what it says. */
class LayoutIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  /** Labeled controls on screen whose text is shown cut ("Export J…"). */
  private static List<String> truncated(Node root) {
    List<String> cut = new ArrayList<>();
    walk(root, cut);
    return cut;
  }

  private static void walk(Node n, List<String> cut) {
    if (!n.isVisible()) return;
    if (n instanceof Labeled l
        && l.getText() != null
        && !l.getText().isEmpty()
        && !l.isWrapText()) {
      // Its own text node (a graphic inside may be a label with its own).
      Node shown = l.getChildrenUnmodifiable().stream()
          .filter(c -> c instanceof Text)
          .findFirst()
          .orElse(null);
      if (shown instanceof Text t && !t.getText().equals(l.getText())) {
        cut.add((l.getId() == null ? l.getClass().getSimpleName() : "#" + l.getId()) + " \""
            + l.getText() + "\" shows \"" + t.getText() + "\"");
      }
    }
    if (n instanceof Parent p) {
      for (Node c : p.getChildrenUnmodifiable()) walk(c, cut);
    }
  }

  /** The window, with no model, at its smallest useful size. */
  private WindowHarness openAt800By600() throws Exception {
    window = WindowHarness.start(
        Files.createTempDirectory("steward-layout-"), WindowHarness.settings("http://127.0.0.1:9"));
    Stage stage = (Stage) window.robot.listTargetWindows().get(0);
    window.robot.interact(() -> {
      stage.setWidth(800);
      stage.setHeight(600);
    });
    return window;
  }

  @Test
  void at800By600NoControlIsCut() throws Exception {
    WindowHarness w = openAt800By600();
    Stage stage = (Stage) w.robot.listTargetWindows().get(0);
    TabPane tabs = w.robot.lookup("#tabs").queryAs(TabPane.class);
    List<String> cut = new ArrayList<>();
    for (int i = 0; i < tabs.getTabs().size(); i++) {
      int tab = i;
      w.robot.interact(() -> tabs.getSelectionModel().select(tab));
      w.robot.sleep(500); // the tab's content is built and laid out
      w.robot.interact(() -> cut.addAll(truncated(stage.getScene().getRoot())));
    }
    assertTrue(cut.isEmpty(), String.join("\n", cut));
    assertEquals(800, stage.getWidth(), 1);
  }

  @Test
  void theApprovalDialogBesideAn800By600WindowShowsAllItsWords() throws Exception {
    WindowHarness w = openAt800By600();
    Stage stage = (Stage) w.robot.listTargetWindows().get(0);
    Files.writeString(w.workspace.resolve("old-notes.txt"), "a line\n");
    for (String call : List.of(
        "/call files.write_text {\"path\":\"~/Steward/old-notes.txt\",\"content\":\"another line\\n\"}",
        "/call files.delete {\"path\":\"~/Steward/old-notes.txt\"}")) {
      w.type(call);
      w.waitForDialog();
      Stage dialog = (Stage) w.robot.listTargetWindows().get(1);
      w.robot.sleep(500); // the preview is in and laid out
      List<String> cut = new ArrayList<>();
      w.robot.interact(() -> cut.addAll(truncated(dialog.getScene().getRoot())));
      assertTrue(cut.isEmpty(), call + ":\n" + String.join("\n", cut));
      assertTrue(dialog.getHeight() <= 600 && dialog.getWidth() <= 800, "fits the screen");
      w.click("#deny");
      w.waitForTurnEnd();
    }
  }

  @Test
  void theWindowOpensWhereItWasLeftAndNeverSmallerThanItsMinimum() throws Exception {
    java.nio.file.Path base = Files.createTempDirectory("steward-placement-");
    window = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    Stage first = (Stage) window.robot.listTargetWindows().get(0);
    window.robot.interact(() -> {
      first.setX(120);
      first.setY(90);
      first.setWidth(1010);
      first.setHeight(705);
    });
    window.quit(); // keeps the files
    window = null;
    assertTrue(Files.readString(base.resolve("steward-home/config/window.json")).contains("1010"));

    window = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    Stage again = (Stage) window.robot.listTargetWindows().get(0);
    assertEquals(1010, again.getWidth(), 1);
    assertEquals(705, again.getHeight(), 1);
    assertEquals(120, again.getX(), 1);
    assertEquals(90, again.getY(), 1);
    assertEquals(800, again.getMinWidth(), 0.5);
    assertEquals(600, again.getMinHeight(), 0.5);
  }
}
