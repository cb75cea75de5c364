package dev.steward.app.settings;

import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;

/** The question put before a paste or a typed line gives a known MCP server another program. */
final class McpReplaceQuestion {

  private McpReplaceQuestion() {}

  /**
   * Asks before a server's name is given another program (a paste or a typed line naming a server
   * that runs something else): Cancel is the default, and closing the question cancels.
   */
  static void ask(McpSettings m, McpSettings.Replacing replacing, Node from) {
    ButtonType replace = new ButtonType("Replace and start it", ButtonBar.ButtonData.OK_DONE);
    Alert ask = new Alert(
        Alert.AlertType.CONFIRMATION,
        McpSettings.replacingQuestion(replacing),
        ButtonType.CANCEL,
        replace);
    ask.setTitle("Steward");
    ask.setHeaderText(
        replacing.servers().size() == 1
            ? "Replace the MCP server that runs under this name?"
            : "Replace the MCP servers that run under these names?");
    ((Button) ask.getDialogPane().lookupButton(replace)).setDefaultButton(false);
    ((Button) ask.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
    ask.getDialogPane().setId("settings-mcp-replace");
    if (from.getScene() != null) ask.initOwner(from.getScene().getWindow());
    ask.setOnHidden(e -> {
      if (ask.getResult() == replace) m.confirmReplacing();
      else m.cancelReplacing();
    });
    ask.show();
  }
}
