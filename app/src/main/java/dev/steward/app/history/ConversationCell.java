package dev.steward.app.history;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuItem;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.VBox;
import org.jspecify.annotations.Nullable;

/**
 * A conversation in the list: its title cut with "…" to the list's width (the whole in a tooltip)
 * and when it was last used; renamed in place (double-click, F2 or the context menu), Enter keeps
 * the new title and Esc the old one.
 */
final class ConversationCell extends ListCell<Conversation> {

  private final HistoryViewModel model;
  private final Label title = new Label();
  private final Label when = new Label();
  private final VBox box = new VBox(1, title, when);
  private final TextField editor = new TextField();
  private final Tooltip tip = new Tooltip();
  private boolean renaming;
  private final javafx.beans.value.ChangeListener<@Nullable String> renameListener;

  /** {@code renameAsked}: the list's F2 names the conversation whose cell starts a rename. */
  ConversationCell(
      HistoryViewModel model, javafx.beans.property.ObjectProperty<@Nullable String> renameAsked) {
    this.model = model;
    renameListener = (o, was, now) -> {
      Conversation c = getItem();
      if (now != null && c != null && c.id().equals(now)) {
        renameAsked.set(null);
        rename();
      }
    };
    // Weakly: the list makes and drops cells, and the property outlives them.
    renameAsked.addListener(new javafx.beans.value.WeakChangeListener<>(renameListener));
    getStyleClass().add("conversation-cell");
    // No wider than the list: a long title is cut, never a sideways scroll bar.
    setPrefWidth(0);
    // Title and day as wide as the cell: the title is cut there, and both line up on the left.
    javafx.beans.binding.DoubleBinding inside = javafx.beans.binding.Bindings.createDoubleBinding(
        () -> Math.max(0, getWidth() - snappedLeftInset() - snappedRightInset()),
        widthProperty(),
        paddingProperty());
    title.getStyleClass().add("conversation-title");
    title.setTextOverrun(OverrunStyle.ELLIPSIS);
    title.setEllipsisString("…");
    when.getStyleClass().add("conversation-when");
    for (Label l : List.of(title, when)) {
      l.setMinWidth(0);
      l.prefWidthProperty().bind(inside);
    }
    editor.setId("history-rename-field");
    editor.setOnKeyPressed(e -> {
      if (e.getCode() == KeyCode.ENTER) {
        finishRename(true);
        e.consume();
      } else if (e.getCode() == KeyCode.ESCAPE) {
        finishRename(false);
        e.consume();
      }
    });
    editor.focusedProperty().addListener((o, was, now) -> {
      if (!now && renaming) finishRename(true);
    });
    MenuItem rename = new MenuItem("Rename…");
    rename.setOnAction(e -> rename());
    MenuItem delete = new MenuItem("Delete");
    delete.setOnAction(e -> {
      Conversation c = getItem();
      if (c != null) model.delete(c);
    });
    MenuItem audit = new MenuItem("Show in audit log");
    audit.setOnAction(e -> {
      Conversation c = getItem();
      if (c != null) model.showInAudit(c);
    });
    ContextMenu menu = new ContextMenu(rename, delete, audit);
    emptyProperty().addListener((o, was, now) -> setContextMenu(now ? null : menu));
    setOnMouseClicked(e -> {
      if (e.getClickCount() == 2 && !isEmpty()) rename();
    });
  }

  @Override
  protected void updateItem(@Nullable Conversation c, boolean empty) {
    Conversation before = getItem();
    super.updateItem(c, empty);
    // The same conversation saved again (a turn ended) keeps a rename that is under way.
    if (renaming && c != null && before != null && c.id().equals(before.id())) return;
    renaming = false;
    setText(null);
    if (empty || c == null) {
      setGraphic(null);
      setTooltip(null);
      return;
    }
    title.setText(c.title());
    when.setText(ConversationDates.describe(
        c.updatedAt(), Instant.now(), ZoneId.systemDefault(), Locale.getDefault()));
    tip.setText(c.title());
    setTooltip(tip);
    setGraphic(box);
  }

  /** Turns the title into a field to type the new one in. */
  void rename() {
    Conversation c = getItem();
    if (c == null || renaming) return;
    renaming = true;
    editor.setText(c.title());
    setGraphic(editor);
    editor.requestFocus();
    editor.selectAll();
  }

  private void finishRename(boolean keep) {
    if (!renaming) return;
    renaming = false;
    Conversation c = getItem();
    if (keep && c != null) model.rename(c, editor.getText());
    setGraphic(box);
    if (getListView() != null) getListView().requestFocus();
  }
}
