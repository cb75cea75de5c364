package dev.steward.app.markdown;

import javafx.scene.Node;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * One run of selectable text: a paragraph, a heading, a list item's line, a table cell or a code
 * block. {@code before} joins it to the previous block when copied (a line break, or a tab between
 * cells); {@code prefix} is what it is shown beside but does not hold (a list marker), copied when
 * the selection takes the block from its start.
 */
record Block(TextFlow flow, String before, String prefix) {

  /** The flow's text as {@link TextFlow#hitTest} counts it: each non-text node is one place. */
  String text() {
    StringBuilder b = new StringBuilder();
    for (Node n : flow.getChildren()) {
      if (n instanceof Text t) b.append(t.getText());
      else b.append('\uFFFC');
    }
    return b.toString();
  }
}
