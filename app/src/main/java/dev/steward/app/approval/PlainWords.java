package dev.steward.app.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.ProposedCall;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.McpToolNames;
import dev.steward.protocol.util.Counted;
import dev.steward.protocol.util.ShownText;

/** Says what a call will do in a user's words, from the gate's dry-run preview where there is one. */
final class PlainWords {

  private PlainWords() {}

  /**
   * The sentence, with what came from the call or the preview (a path, a subject, a URL) unable
   * to hide or reorder any of it: each hidden character written out.
   */
  static String describe(ProposedCall call, Preflight.Result check) {
    return ShownText.escaped(said(call, check));
  }

  private static String said(ProposedCall call, Preflight.Result check) {
    JsonNode preview = check.preview();
    JsonNode args = call.args();
    if (preview != null && preview.hasNonNull("operation")) {
      String path = preview.path("path").asText(args.path("path").asText("?"));
      String to = preview.path("to").asText(args.path("to").asText("?"));
      boolean overwrites = preview.path("overwrites").asBoolean(false);
      switch (preview.get("operation").asText()) {
        case "write":
          return overwrites
              ? "Overwrite " + path + " (the changes are below; the old text is kept for undo)"
              : "Create the file " + path;
        case "move":
          return "Move " + path + " to " + to
              + (overwrites ? ", replacing what is there (kept for undo)" : "");
        case "delete":
          return "Delete " + path + " (it goes to the undo area, so it can be restored)";
        case "mkdir":
          return "Create the folder " + path;
        default:
          break;
      }
    }
    // A pack's own headline for its call (a calendar event as it will be, a mail as it will go).
    if (preview != null && preview.hasNonNull("says"))
      return preview.get("says").asText();
    switch (call.toolName()) {
      case "clipboard.write":
        return "Put "
            + Counted.of(args.path("text").asText("").length(), "character", "characters")
            + " on the clipboard";
      case "clipboard.read":
        return "Read the clipboard";
      case "notify.send":
        return "Show the notification \"" + args.path("title").asText("") + "\"";
      case "apps.open":
        return "Open the app " + args.path("app").asText("?")
            + (args.hasNonNull("target") ? " with " + args.get("target").asText() : "");
      case "browser.open_url":
        return "Open " + args.path("url").asText("?") + " in the browser and read the page";
      default:
        return McpToolNames.serverPart(call.toolName())
            .map(server -> "Run the tool "
                + call.toolName().substring(McpToolNames.prefix(server).length())
                + " of the MCP server “" + server + "” (not part of Steward; it runs as that"
                + " server decides)")
            .orElse("Run " + call.toolName());
    }
  }
}
