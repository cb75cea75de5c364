package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.agent.CallState;
import dev.steward.app.chat.MessageEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.geometry.Orientation;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Conversations are kept in data/chat-history and come back after the app restarts. */
class HistoryIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  @Test
  void historySurvivesARestartAndConversationsCanBeAddedAndDeleted() throws Exception {
    WindowHarness w = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    window = w;
    w.waitFor(() -> w.app.history().conversations().size() == 1);
    Files.writeString(w.workspace.resolve("kept.txt"), "x");
    w.type("/call files.list_dir {\"path\":\"~/Steward\"}");
    w.waitFor(() -> !w.cards().isEmpty() && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    w.type("/help");
    w.waitFor(() -> w.messages(MessageEntry.Kind.NOTICE).stream()
        .anyMatch(m -> m.text().contains("/call <tool> <json>")));
    w.waitForTurnEnd();
    // The title is the first real message, never a /command.
    w.type("Where did I keep the notes?");
    w.waitForTurnEnd();
    w.waitFor(
        () -> w.app.history().conversations().get(0).title().equals("Where did I keep the notes?"));

    w.robot.clickOn("#history-new");
    w.waitFor(() ->
        w.app.history().conversations().size() == 2 && w.app.chat().entries().isEmpty());
    w.type("/tools");
    w.waitForTurnEnd();
    w.waitFor(() -> w.app.history().conversations().get(0).title().equals("New conversation")
        && w.app.history().conversations().size() == 2);

    Path base = w.base;
    w.quit();
    WindowHarness again = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    window = again;
    again.waitFor(() -> again.app.history().conversations().size() == 2);
    // The newest conversation opens; the older one, with its card, is a click away.
    again.waitFor(() ->
        again.messages(MessageEntry.Kind.USER).stream().anyMatch(m -> m.text().equals("/tools")));
    again.robot.clickOn("Where did I keep the notes?");
    again.waitFor(() -> again.cards().size() == 1);
    assertEquals(CallState.DONE, again.cards().get(0).state());
    assertTrue(again.cards().get(0).resultProperty().get().contains("kept.txt"));
    assertTrue(again.messages(MessageEntry.Kind.NOTICE).stream()
        .anyMatch(m -> m.text().contains("/call <tool> <json>")));

    again.robot.clickOn("#history-delete");
    again.waitFor(() -> again.app.history().conversations().size() == 1);
    assertEquals("New conversation", again.app.history().conversations().get(0).title());
  }

  @Test
  void conversationsAreSearchedRenamedInPlaceAndDeletedWithUndo() throws Exception {
    WindowHarness w = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    window = w;
    w.waitFor(() -> w.app.history().conversations().size() == 1);
    String party = "Plan the garden party for Saturday with lanterns";
    w.type(party);
    w.waitForTurnEnd();
    w.waitFor(() -> w.app.history().conversations().get(0).title().equals(party));
    w.robot.clickOn("#history-new");
    w.waitFor(() -> w.app.history().conversations().size() == 2);
    w.type("Book the dentist");
    w.waitForTurnEnd();
    w.waitFor(() -> w.app.history().conversations().get(0).title().equals("Book the dentist"));

    // A long title is cut with "…" to the list, never a sideways scroll bar; the day is shown.
    ListView<?> list = w.robot.lookup("#history-list").queryAs(ListView.class);
    w.waitFor(() ->
        w.robot.from(list).lookup(".conversation-title").queryAllAs(Label.class).stream()
            .anyMatch(title -> party.equals(title.getText())
                && title.getChildrenUnmodifiable().stream()
                    .anyMatch(n -> n instanceof Text t
                        && t.getText().endsWith("…")
                        && t.getText().length() < party.length())));
    assertTrue(w.robot.from(list).lookup(".scroll-bar").queryAllAs(ScrollBar.class).stream()
        .noneMatch(b -> b.getOrientation() == Orientation.HORIZONTAL && b.isVisible()));
    assertTrue(w.robot.from(list).lookup(".conversation-when").queryAllAs(Label.class).stream()
        .allMatch(l -> l.getText().startsWith("Today, ")));

    // Search looks in titles and messages.
    w.robot.clickOn("#history-search").write("lantern");
    w.waitFor(() -> w.app.history().shown().size() == 1
        && w.app.history().shown().get(0).title().equals(party));
    w.robot.interact(() -> w.app.history().searchTextProperty().set("DENTIST"));
    w.waitFor(() -> w.app.history().shown().size() == 1
        && w.app.history().shown().get(0).title().equals("Book the dentist"));
    w.robot.clickOn("#history-search").type(KeyCode.ESCAPE);
    w.waitFor(() -> w.app.history().shown().size() == 2);

    // F2 renames in place; the next turn keeps the user's title.
    w.robot.clickOn(
        w.robot.from(list).lookup(".conversation-title").queryAllAs(Label.class).stream()
            .filter(title -> "Book the dentist".equals(title.getText()))
            .findFirst()
            .orElseThrow());
    w.robot.type(KeyCode.F2);
    w.waitFor(() -> w.robot.lookup("#history-rename-field").tryQuery().isPresent());
    w.robot.interact(() -> w.robot
        .lookup("#history-rename-field")
        .queryAs(javafx.scene.control.TextField.class)
        .setText("Dentist, Tuesday"));
    w.robot.clickOn("#history-rename-field").type(KeyCode.ENTER);
    w.waitFor(() -> w.app.history().currentProperty().get().title().equals("Dentist, Tuesday"));
    w.type("and the optician");
    w.waitForTurnEnd();
    w.robot.sleep(500); // saved
    assertEquals("Dentist, Tuesday", w.app.history().currentProperty().get().title());

    // Delete, then Undo: the conversation is back whole, and open.
    w.robot.clickOn("#history-delete");
    w.waitFor(() -> w.app.history().conversations().size() == 1);
    w.waitFor(() -> w.robot
            .lookup("#history-deleted")
            .queryAs(Label.class)
            .getParent()
            .isVisible()
        && w.robot.lookup("#history-deleted").queryAs(Label.class).getText().contains("Dentist"));
    w.robot.clickOn("#history-undo");
    w.waitFor(() -> w.app.history().conversations().size() == 2
        && w.messages(MessageEntry.Kind.USER).stream()
            .map(MessageEntry::text)
            .toList()
            .equals(java.util.List.of("Book the dentist", "and the optician")));
    assertFalse(
        w.robot.lookup("#history-deleted").queryAs(Label.class).getParent().isVisible());

    Path base = w.base;
    w.quit();
    WindowHarness again = WindowHarness.start(base, WindowHarness.settings("http://127.0.0.1:9"));
    window = again;
    again.waitFor(() -> again.app.history().conversations().stream()
        .map(c -> c.title())
        .collect(Collectors.toSet())
        .equals(Set.of(party, "Dentist, Tuesday")));
  }

  @Test
  void aConversationsAndACallsAuditRowsAreAClickAway() throws Exception {
    WindowHarness w = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    window = w;
    w.waitFor(() -> w.app.history().conversations().size() == 1);
    Files.createDirectories(w.workspace.resolve("sub"));
    w.type("/call files.list_dir {\"path\":\"~/Steward\"}");
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    w.type("/call files.list_dir {\"path\":\"~/Steward/sub\"}");
    w.waitFor(() -> w.cards().size() == 2 && w.cards().get(1).state() == CallState.DONE);
    w.waitForTurnEnd();
    String first = w.app.history().currentProperty().get().id();
    Set<String> firstCalls = Set.of(w.cards().get(0).callId(), w.cards().get(1).callId());

    w.robot.clickOn("#history-new");
    w.waitFor(() ->
        w.app.history().conversations().size() == 2 && w.app.chat().entries().isEmpty());
    w.type("/call files.list_dir {\"path\":\"~/Steward\"}");
    w.waitFor(() -> w.cards().size() == 1 && w.cards().get(0).state() == CallState.DONE);
    w.waitForTurnEnd();
    String second = w.app.history().currentProperty().get().id();
    String call = w.cards().get(0).callId();

    // A card's link: the audit tab, showing that call's decision and completion rows only.
    w.click("#audit-link-" + call);
    w.waitFor(() -> auditSelected(w));
    w.waitFor(() -> w.app.audit().rows().size() == 2
        && w.app.audit().rows().stream().allMatch(r -> call.equals(r.callId())));
    assertTrue(
        w.app.audit().rows().stream().allMatch(r -> r.traceId().startsWith(second + "/")),
        "the trace carries the conversation");

    // The conversation's button: every row of both of the first conversation's calls, none of the
    // other's.
    w.robot.interact(() -> tabs(w).getSelectionModel().select(0));
    w.robot.interact(() -> w.app
        .history()
        .open(w.app.history().conversations().stream()
            .filter(c -> c.id().equals(first))
            .findFirst()
            .orElseThrow()));
    w.waitFor(() ->
        first.equals(w.app.history().currentProperty().get().id()) && w.cards().size() == 2);
    w.click("#history-audit");
    // Each call: its preflight (which names no call), its decision and its completion.
    w.waitFor(() -> auditSelected(w) && w.app.audit().rows().size() == 6);
    assertEquals(
        firstCalls,
        w.app.audit().rows().stream()
            .map(r -> r.callId())
            .filter(java.util.Objects::nonNull)
            .collect(Collectors.toSet()));
    assertEquals(first, w.app.audit().textProperty().get());
  }

  private static javafx.scene.control.TabPane tabs(WindowHarness w) {
    return w.robot.lookup("#tabs").queryAs(javafx.scene.control.TabPane.class);
  }

  private static boolean auditSelected(WindowHarness w) {
    return "audit-tab".equals(tabs(w).getSelectionModel().getSelectedItem().getId());
  }
}
