package dev.steward.app.markdown;

import javafx.animation.PauseTransition;
import javafx.scene.control.Button;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.util.Duration;

/** Puts text on the clipboard, and the Copy buttons that do it with a moment of "Copied". */
public final class Clip {

  private Clip() {}

  public static void put(String text) {
    ClipboardContent content = new ClipboardContent();
    content.putString(text);
    Clipboard.getSystemClipboard().setContent(content);
  }

  /** A small Copy button; {@code text} is asked when it is pressed (a streaming reply grows). */
  public static Button button(java.util.function.Supplier<String> text, String what) {
    Button b = new Button("Copy");
    b.getStyleClass().addAll("copy-button", "flat", "small");
    b.setFocusTraversable(true);
    b.setAccessibleText("Copy " + what);
    b.setTooltip(new javafx.scene.control.Tooltip("Copy " + what));
    b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    PauseTransition back = new PauseTransition(Duration.seconds(1.5));
    back.setOnFinished(e -> b.setText("Copy"));
    b.setOnAction(e -> {
      put(text.get());
      b.setText("Copied");
      back.playFromStart();
    });
    return b;
  }
}
