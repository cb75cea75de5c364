package dev.steward.app.history;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.jspecify.annotations.Nullable;

/**
 * The conversations beside the chat: a search over titles and messages, the list (rename in place,
 * Delete key), New, Delete with a moment to undo it, and the way to a conversation's audit rows.
 */
public final class HistoryView extends VBox {

  /** How long a deleted conversation can be brought back from the bar under the list. */
  private static final javafx.util.Duration UNDO_FOR = javafx.util.Duration.seconds(10);

  private static javafx.scene.Node undoBar(HistoryViewModel model) {
    Label what = new Label();
    what.setId("history-deleted");
    what.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
    what.setMinWidth(0);
    HBox.setHgrow(what, Priority.ALWAYS);
    Button undo = new Button("Undo");
    undo.setId("history-undo");
    undo.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    undo.setOnAction(e -> model.undoDelete());
    HBox bar = new HBox(8, what, undo);
    bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
    bar.getStyleClass().add("history-undo-bar");
    javafx.animation.PauseTransition expire = new javafx.animation.PauseTransition(UNDO_FOR);
    expire.setOnFinished(e -> model.forgetDeleted());
    model.deletedProperty().addListener((o, was, now) -> {
      bar.setVisible(now != null);
      if (now == null) {
        expire.stop();
        return;
      }
      what.setText("Deleted “" + now.conversation().title() + "”");
      expire.playFromStart();
    });
    bar.setVisible(false);
    bar.managedProperty().bind(bar.visibleProperty());
    return bar;
  }

  public HistoryView(HistoryViewModel model) {
    super(8);
    getStyleClass().add("history");
    setPadding(new Insets(10));
    setPrefWidth(220);
    javafx.scene.control.TextField search = new javafx.scene.control.TextField();
    search.setId("history-search");
    search.setPromptText("Search conversations");
    search.textProperty().bindBidirectional(model.searchTextProperty());
    search.setOnKeyPressed(e -> {
      if (e.getCode() == javafx.scene.input.KeyCode.ESCAPE) search.clear();
    });
    ListView<Conversation> list = new ListView<>(model.shown());
    list.setId("history-list");
    list.setPlaceholder(new Label("No conversation holds that"));
    javafx.beans.property.ObjectProperty<@Nullable String> renameAsked =
        new javafx.beans.property.SimpleObjectProperty<>();
    list.setCellFactory(l -> new ConversationCell(model, renameAsked));
    list.setOnKeyPressed(e -> {
      Conversation selected = list.getSelectionModel().getSelectedItem();
      if (selected == null) return;
      if (e.getCode() == javafx.scene.input.KeyCode.F2) {
        renameAsked.set(selected.id());
        e.consume();
      } else if (e.getCode() == javafx.scene.input.KeyCode.DELETE) {
        model.delete(selected);
        e.consume();
      }
    });
    VBox.setVgrow(list, Priority.ALWAYS);
    // Selecting opens; the list follows the open conversation when it changes elsewhere.
    list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
      if (now != null) model.open(now);
    });
    model.currentProperty().addListener((o, was, now) -> {
      Conversation selected = list.getSelectionModel().getSelectedItem();
      if (now != null && (selected == null || !now.equals(selected)))
        list.getSelectionModel().select(now);
    });
    Button add = new Button("New");
    add.setId("history-new");
    add.setOnAction(e -> model.newConversation());
    Button delete = new Button("Delete");
    delete.setId("history-delete");
    delete.disableProperty().bind(model.currentProperty().isNull());
    delete.setOnAction(e -> {
      Conversation c = model.currentProperty().get();
      if (c != null) model.delete(c);
    });
    Button audit = new Button("Show in audit log");
    audit.setId("history-audit");
    audit.setTooltip(new javafx.scene.control.Tooltip(
        "Show what this conversation's calls did, in the audit log"));
    audit.disableProperty().bind(model.currentProperty().isNull());
    audit.setOnAction(e -> {
      Conversation c = model.currentProperty().get();
      if (c != null) model.showInAudit(c);
    });
    Label problem = new Label();
    problem.setWrapText(true);
    problem.getStyleClass().add("settings-error");
    problem.textProperty().bind(model.problemProperty());
    Label title = new Label("Conversations");
    title.getStyleClass().add("settings-heading");
    getChildren()
        .addAll(title, search, list, undoBar(model), new HBox(8, add, delete), audit, problem);
  }
}
