package dev.steward.app.syntax;

import java.util.Locale;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/** A program in a fixed-width font, coloured by {@link Syntax} (style classes {@code code-<kind>}). */
public final class HighlightedCode extends TextFlow {

  public HighlightedCode() {
    getStyleClass().add("highlighted-code");
  }

  /** Shows {@code code} as {@code language}, replacing what was shown. */
  public void show(String language, String code) {
    getChildren().clear();
    for (Syntax.Run run : Syntax.runs(language, code)) {
      Text t = new Text(run.text());
      t.getStyleClass().addAll("code-text", "code-" + run.kind().name().toLowerCase(Locale.ROOT));
      getChildren().add(t);
    }
  }
}
