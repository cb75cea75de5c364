package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.agent.CallState;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The audit panel on the real stage against the real service's log. */
class AuditPanelIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  private WindowHarness open() throws Exception {
    window = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    return window;
  }

  private void call(WindowHarness w, String command) throws Exception {
    int before = w.cards().size();
    w.type(command);
    w.waitFor(
        () -> w.cards().size() == before + 1 && w.cards().get(before).state().finished());
    w.waitForTurnEnd();
  }

  @SuppressWarnings("unchecked")
  private static TableView<Audit.Row> table(WindowHarness w) {
    return w.robot.lookup("#audit-table").queryAs(TableView.class);
  }

  private static void showAudit(WindowHarness w) {
    w.robot.clickOn("Audit log");
  }

  @Test
  void filteringShowsOnlyMatchingRowsAndExportWritesThem() throws Exception {
    WindowHarness w = open();
    Files.writeString(w.workspace.resolve("a.txt"), "a");
    call(w, "/call files.list_dir {\"path\":\"~/Steward\"}");
    call(w, "/call files.read_text {\"path\":\"~/Steward/a.txt\"}");
    call(w, "/call files.read_text {\"path\":\"/etc/passwd\"}");
    showAudit(w);
    w.waitFor(() -> table(w).getItems().size() >= 5);
    w.robot.clickOn("#audit-tool").write("files.read_text");
    w.waitFor(() -> !table(w).getItems().isEmpty()
        && table(w).getItems().stream().allMatch(r -> "files.read_text".equals(r.tool())));
    w.robot.interact(() -> w.app.audit().decisionProperty().set("blocked"));
    w.waitFor(() -> table(w).getItems().size() == 1
        && "blocked".equals(table(w).getItems().get(0).decision()));
    assertTrue(table(w).getItems().get(0).argsPreview().contains("/etc/passwd"));

    Path csv = w.base.resolve("export.csv");
    assertEquals(1, w.app.audit().export(csv));
    List<String> lines = Files.readAllLines(csv);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("audit_id,kind,started_at"));
    assertTrue(
        lines.get(1).contains("files.read_text") && lines.get(1).contains("blocked"), lines.get(1));
    Path json = w.base.resolve("export.json");
    w.robot.interact(() -> w.app.audit().decisionProperty().set(""));
    // Each read its preflight row; the read that ran a decision and a completion row; the refusal
    // one row.
    w.waitFor(() -> table(w).getItems().size() == 5);
    assertEquals(5, w.app.audit().export(json));
    assertEquals(5, Json.parse(Files.readString(json)).size());
    w.robot.interact(() -> table(w).getSelectionModel().select(0));
    w.robot.interact(() -> w.app.audit().toolProperty().set(""));
    w.waitFor(() -> table(w).getItems().size() == 8);
    w.robot.interact(() -> table(w).getSelectionModel().select(0));
    // Every column but the last (which takes the rest) fits its text: nothing shown cut.
    w.waitFor(() -> {
      var columns = table(w).getColumns();
      List<String> cut = table(w).lookupAll(".table-cell").stream()
          .filter(n -> n instanceof javafx.scene.control.TableCell<?, ?> c
              && c.isVisible()
              && c.getText() != null
              && !c.getText().isEmpty()
              && c.getTableColumn() != columns.get(columns.size() - 1)
              && c.lookup(".text") instanceof javafx.scene.text.Text t
              && !t.getText().equals(c.getText()))
          .map(n -> ((javafx.scene.control.TableCell<?, ?>) n).getText())
          .toList();
      List<String> headings = table(w).lookupAll(".column-header .label").stream()
          .filter(n -> n instanceof Label l
              && l.getChildrenUnmodifiable().stream()
                  .anyMatch(t ->
                      t instanceof javafx.scene.text.Text x && !x.getText().equals(l.getText())))
          .map(n -> ((Label) n).getText())
          .toList();
      return cut.isEmpty() && headings.isEmpty();
    });
    w.screenshot("audit");
  }

  /** A row shows its arguments cut; the details read the whole back from the service. */
  @Test
  void aRowWhoseArgumentsWereCutShowsThemWholeInItsDetails() throws Exception {
    WindowHarness w = open();
    String path = "~/Steward/" + "x".repeat(120) + "/" + "y".repeat(120) + "/the-end";
    call(w, "/call files.ensure_dir {\"path\":\"" + path + "\"}");
    showAudit(w);
    w.waitFor(() -> table(w).getItems().stream()
        .anyMatch(r -> "files.ensure_dir".equals(r.tool()) && "decision".equals(r.kind())));
    Audit.Row decision = table(w).getItems().stream()
        .filter(r -> "files.ensure_dir".equals(r.tool()) && "decision".equals(r.kind()))
        .findFirst()
        .orElseThrow();
    assertFalse(decision.argsPreview().contains("the-end"), decision.argsPreview());
    w.robot.interact(() -> table(w).getSelectionModel().select(decision));
    w.waitFor(() ->
        w.robot.lookup("#audit-details").queryTextInputControl().getText().contains("/the-end\""));
    assertTrue(w.robot
        .lookup("#audit-details")
        .queryTextInputControl()
        .getText()
        .contains("checked against this row's hash"));
    // An export carries the whole too.
    Path json = w.base.resolve("whole.json");
    w.app.audit().export(json);
    assertTrue(
        Json.parse(Files.readString(json)).findValuesAsText("args_whole").stream()
            .anyMatch(a -> a.contains("/the-end")),
        Files.readString(json));
    Path csv = w.base.resolve("whole.csv");
    w.app.audit().export(csv);
    assertTrue(Files.readAllLines(csv).get(0).endsWith(",args_whole"));
    assertTrue(Files.readString(csv).contains("/the-end"));
  }

  @Test
  void undoFromTheRowThatChangedTheFileMarksTheCallAndRechecksTheChain() throws Exception {
    WindowHarness w = open();
    Path file = w.workspace.resolve("plan.txt");
    Files.writeString(file, "first plan\n");
    w.type(
        "/call files.write_text {\"path\":\"~/Steward/plan.txt\",\"content\":\"second plan\\n\"}");
    w.waitForDialog();
    w.click("#approve");
    w.waitFor(() -> !w.cards().isEmpty() && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    showAudit(w);
    // The filters say what they are.
    for (String name : List.of("Tool", "Decision", "Result", "When", "Search")) {
      assertTrue(
          w.robot.lookup(".filter-label").queryAllAs(Label.class).stream()
              .anyMatch(l -> name.equals(l.getText()) && l.getLabelFor() != null),
          "a label for " + name);
    }
    w.waitFor(() -> table(w).getItems().stream()
        .anyMatch(r -> "files.write_text".equals(r.tool()) && "completion".equals(r.kind())));
    Audit.Row completion = table(w).getItems().stream()
        .filter(r -> "files.write_text".equals(r.tool()) && "completion".equals(r.kind()))
        .findFirst()
        .orElseThrow();
    w.robot.interact(() -> table(w).getSelectionModel().select(completion));
    String details = w.robot.lookup("#audit-details").queryTextInputControl().getText();
    assertFalse(details.contains("Z\n") || details.contains("Z ("), "local times: " + details);
    assertFalse(w.robot.lookup("#audit-undo").queryAs(Button.class).isDisabled());
    w.waitFor(() ->
        w.robot.lookup("#audit-chain").queryAs(Label.class).getText().startsWith("Chain verified"));
    String before = w.robot.lookup("#audit-chain").queryAs(Label.class).getText();
    w.robot.clickOn("#audit-undo");
    w.waitFor(() -> Files.readString(file).equals("first plan\n"));
    // The chain is checked again after the change: it now counts the undo's rows too.
    w.waitFor(() -> {
      String now = w.robot.lookup("#audit-chain").queryAs(Label.class).getText();
      return now.startsWith("Chain verified") && !now.equals(before);
    });
    // Both rows of the undone call are marked, and it is not offered again.
    w.waitFor(() -> w.robot.lookup(".audit-undone").queryAll().size() >= 2);
    w.robot.interact(() -> table(w).getSelectionModel().clearSelection());
    Audit.Row again = table(w).getItems().stream()
        .filter(r -> "files.write_text".equals(r.tool()) && "completion".equals(r.kind()))
        .findFirst()
        .orElseThrow();
    w.robot.interact(() -> table(w).getSelectionModel().select(again));
    assertTrue(w.robot.lookup("#audit-undo").queryAs(Button.class).isDisabled());
    assertTrue(
        w.robot.lookup("#audit-details").queryTextInputControl().getText().contains("Undone: yes"));
  }

  @Test
  void undoRestoresAFileAndAddsARow() throws Exception {
    WindowHarness w = open();
    Path file = w.workspace.resolve("draft.txt");
    Files.writeString(file, "first draft\n");
    w.type(
        "/call files.write_text {\"path\":\"~/Steward/draft.txt\",\"content\":\"second draft\\n\"}");
    w.waitForDialog();
    w.click("#approve");
    w.waitFor(() -> !w.cards().isEmpty() && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    assertEquals("second draft\n", Files.readString(file));
    showAudit(w);
    w.waitFor(() -> table(w).getItems().stream()
        .anyMatch(r -> "files.write_text".equals(r.tool()) && "decision".equals(r.kind())));
    Audit.Row decision = table(w).getItems().stream()
        .filter(r -> "files.write_text".equals(r.tool()) && "decision".equals(r.kind()))
        .findFirst()
        .orElseThrow();
    w.robot.interact(() -> table(w).getSelectionModel().select(decision));
    assertFalse(w.robot.lookup("#audit-undo").queryAs(Button.class).isDisabled());
    assertTrue(
        w.robot.lookup("#audit-details").queryTextInputControl().getText().contains("confirmed"));
    w.robot.clickOn("#audit-undo");
    w.waitFor(() -> Files.readString(file).equals("first draft\n"));
    w.waitFor(() -> table(w).getItems().stream().anyMatch(r -> "tool.undo".equals(r.tool())));
    w.waitFor(
        () -> w.robot.lookup("#audit-status").queryAs(Label.class).getText().startsWith("Undone"));
  }

  @Test
  void aRowEditedInTheH2FileBetweenRunsShowsAsBrokenAtThatRow() throws Exception {
    WindowHarness w = open();
    call(w, "/call files.list_dir {\"path\":\"~/Steward\"}");
    call(w, "/call files.list_dir {\"path\":\"~/Steward\"}");
    showAudit(w);
    w.waitFor(() ->
        w.robot.lookup("#audit-chain").queryAs(Label.class).getText().startsWith("Chain verified"));
    Path base = w.base;
    w.quit();
    try (Connection c = DriverManager.getConnection(
            "jdbc:h2:file:" + base.resolve("steward-home/data/audit").toAbsolutePath());
        var st = c.createStatement()) {
      assertEquals(
          1, st.executeUpdate("UPDATE audit SET summary = 'nothing to see' WHERE seq = 2"));
    }
    window = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    WindowHarness again = window;
    showAudit(again);
    again.waitFor(() -> again
        .robot
        .lookup("#audit-chain")
        .queryAs(Label.class)
        .getText()
        .startsWith("Chain broken at row 2"));
  }
}
