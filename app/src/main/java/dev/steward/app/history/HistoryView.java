package dev.steward.app.history;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The conversations beside the chat, with New and Delete. */
public final class HistoryView extends VBox {

  public HistoryView(HistoryViewModel model) {
    super(8);
    getStyleClass().add("history");
    setPadding(new Insets(10));
    setPrefWidth(220);
    ListView<Conversation> list = new ListView<>(model.conversations());
    list.setId("history-list");
    VBox.setVgrow(list, Priority.ALWAYS);
    // Selecting opens; the list follows the open conversation when it changes elsewhere.
    list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
      if (now != null) model.open(now);
    });
    model.currentProperty().addListener((o, was, now) -> {
      Conversation selected = list.getSelectionModel().getSelectedItem();
      if (now != null && (selected == null || !now.id().equals(selected.id())))
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
    getChildren().addAll(title, list, new HBox(8, add, delete), audit, problem);
  }
}
