package dev.steward.app.settings;

import dev.steward.protocol.method.PackSettings;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The settings sections the tool packs declare, in their order, each built as the service
 * describes it: a check box, a choice, a line of text or a password field a setting, then Save.
 * Node ids are {@code settings-<pack>-<key>} (underscores as dashes).
 */
final class PackSectionsView extends VBox {

  PackSectionsView(SettingsViewModel model) {
    super(18);
    Label unread = SettingsView.error("settings-packs-error", model.packSectionsError());
    Runnable render = () -> {
      List<Node> children = new ArrayList<>();
      children.add(unread);
      model.packSections().forEach(section -> children.add(section(section)));
      getChildren().setAll(children);
    };
    model.packSections().addListener((ListChangeListener<PackSection>) change -> render.run());
    render.run();
    managedProperty().bind(Bindings.isNotEmpty(model.packSections()).or(unread.visibleProperty()));
  }

  private static VBox section(PackSection m) {
    PackSettings.Section d = m.declaration();
    String id = "settings-" + d.pack().replace('_', '-');
    List<Node> rows = new ArrayList<>();
    if (!d.hint().isEmpty()) rows.add(hint(d.hint()));
    for (PackSettings.Field f : d.fields()) {
      String fieldId = id + "-" + f.key().replace('_', '-');
      switch (f.kind()) {
        case TOGGLE -> {
          CheckBox box = new CheckBox(f.label());
          box.setMnemonicParsing(false);
          box.setId(fieldId);
          box.selectedProperty().bindBidirectional(m.toggle(f.key()));
          rows.add(box);
        }
        case CHOICE -> {
          ChoiceBox<String> choice = new ChoiceBox<>();
          choice.setId(fieldId);
          choice.getItems().setAll(f.choices());
          choice.valueProperty().bindBidirectional(m.text(f.key()));
          rows.add(labelled(f.label(), choice));
        }
        case TEXT, SECRET, NUMBER -> {
          boolean secret = f.kind() == PackSettings.Kind.SECRET;
          TextField field = secret ? new PasswordField() : new TextField();
          field.setId(fieldId);
          String fallback = f.fallback();
          field.setPromptText(
              secret ? "kept as set when left empty" : fallback == null ? "" : fallback);
          field.textProperty().bindBidirectional(m.text(f.key()));
          HBox.setHgrow(field, Priority.ALWAYS);
          rows.add(labelled(f.label(), field));
        }
      }
      if (!f.help().isEmpty()) rows.add(hint(f.help()));
    }
    Button save = new Button("Save");
    save.setId(id + "-save");
    save.setOnAction(e -> m.save());
    Label status = new Label();
    status.setId(id + "-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    rows.add(new HBox(8, save, status));
    rows.add(SettingsView.error(id + "-error", m.errorProperty()));
    return SettingsView.section(d.title(), rows.toArray(Node[]::new));
  }

  private static Label hint(String text) {
    Label hint = new Label(text);
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return hint;
  }

  private static HBox labelled(String label, Node field) {
    Label l = new Label(label);
    l.setMnemonicParsing(false);
    l.setLabelFor(field);
    HBox row = new HBox(8, l, field);
    row.setAlignment(Pos.BASELINE_LEFT);
    return row;
  }
}
