package dev.steward.app.markdown;

import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * A code block: its language and a Copy button above, the code below in a fixed-width font that
 * scrolls sideways instead of wrapping, so a long command stays one line to read and to copy.
 */
final class CodeBlockView extends VBox {

  private final TextFlow flow;

  CodeBlockView(String code, String language) {
    getStyleClass().add("md-code-block");
    // A program is shown as it runs: a bidirectional control or an invisible character would
    // show it in another order, or hide part of what Copy puts on the clipboard.
    Text text = new Text(dev.steward.protocol.util.ShownText.escapedKeepingLines(code));
    text.getStyleClass().addAll("md-text", "md-code-text");
    flow = new TextFlow(text);
    flow.getStyleClass().add("md-code-flow");
    ScrollPane scroll = new ScrollPane(flow);
    scroll.getStyleClass().add("md-code-scroll");
    scroll.setVbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
    scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.AS_NEEDED);
    scroll.setFitToHeight(true);
    // As tall as its lines, whatever the font the style sheet gives it.
    text.layoutBoundsProperty().addListener((o, was, now) -> fitHeight(scroll));
    fitHeight(scroll);
    Label lang = new Label(
        language.isBlank() ? "code" : dev.steward.protocol.util.ShownText.escaped(language));
    lang.getStyleClass().add("md-code-language");
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    HBox header = new HBox(6, lang, spacer, Clip.button(() -> code, "code"));
    header.setAlignment(Pos.CENTER_LEFT);
    header.getStyleClass().add("md-code-header");
    getChildren().addAll(header, scroll);
  }

  private void fitHeight(ScrollPane scroll) {
    // The flow keeps no padding: selection maps points to characters in its own coordinates.
    scroll.setPrefViewportHeight(flow.getChildren().get(0).getLayoutBounds().getHeight());
  }

  TextFlow flow() {
    return flow;
  }
}
