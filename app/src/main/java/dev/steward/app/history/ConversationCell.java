package dev.steward.app.history;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.MenuItem;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import org.jspecify.annotations.Nullable;

/**
 * A conversation in the list: its title cut with "…" to the list's width (the whole in a tooltip)
 * and when it was last used; renamed in place (double-click, F2 or the context menu), Enter keeps
 * the new title and Esc the old one.
 */
final class ConversationCell extends ListCell<Conversation> {

  private final HistoryViewModel model;
  private final Label when = new Label();
  private final TextField editor = new TextField();
  private final Tooltip tip = new Tooltip();
  private boolean renaming;

  /** {@code renameAsked}: the list's F2 names the conversation whose cell starts a rename. */
  ConversationCell(
      HistoryViewModel model, javafx.beans.property.ObjectProperty<@Nullable String> renameAsked) {
    this.model = model;
    renameAsked.addListener((o, was, now) -> {
      Conversation c = getItem();
      if (now != null && c != null && c.id().equals(now)) {
        renameAsked.set(null);
        rename();
      }
    });
    getStyleClass().add("conversation-cell");
    // No wider than the list: a long title is cut, never a sideways scroll bar.
    setPrefWidth(0);
    // The title is the cell's own text, which a cell cuts to its width; the day goes under it.
    setTextOverrun(OverrunStyle.ELLIPSIS);
    setContentDisplay(ContentDisplay.BOTTOM);
    setAlignment(javafx.geometry.Pos.CENTER_LEFT);
    setTextAlignment(javafx.scene.text.TextAlignment.LEFT);
    setGraphicTextGap(1);
    setEllipsisString("…");
    when.getStyleClass().add("conversation-when");
    // As wide as the cell, so it lines up under the title instead of centring beneath it.
    when.setMinWidth(0);
    when.prefWidthProperty()
        .bind(javafx.beans.binding.Bindings.createDoubleBinding(
            () -> Math.max(0, getWidth() - snappedLeftInset() - snappedRightInset()),
            widthProperty(),
            paddingProperty()));
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
    super.updateItem(c, empty);
    renaming = false;
    if (empty || c == null) {
      setText(null);
      setGraphic(null);
      setTooltip(null);
      return;
    }
    setText(c.title());
    when.setText(ConversationDates.describe(
        c.updatedAt(), Instant.now(), ZoneId.systemDefault(), Locale.getDefault()));
    tip.setText(c.title());
    setTooltip(tip);
    setGraphic(when);
  }

  /** Turns the title into a field to type the new one in. */
  void rename() {
    Conversation c = getItem();
    if (c == null || renaming) return;
    renaming = true;
    editor.setText(c.title());
    setText(null);
    setGraphic(editor);
    editor.requestFocus();
    editor.selectAll();
  }

  private void finishRename(boolean keep) {
    if (!renaming) return;
    renaming = false;
    Conversation c = getItem();
    if (keep && c != null) model.rename(c, editor.getText());
    if (c != null) setText(c.title());
    setGraphic(when);
    if (getListView() != null) getListView().requestFocus();
  }
}
