package dev.steward.app.settings;

import dev.steward.app.markdown.ProseText;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.util.Counted;
import dev.steward.protocol.util.ShownText;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.jspecify.annotations.Nullable;

/**
 * One MCP server in Settings: its state, what it last wrote to its log when it failed, and its
 * tools with what the user is asked to look at — a tool that is new or changed, and any
 * instructions to the assistant or hidden text found in what it says.
 */
final class McpServerCard {

  private McpServerCard() {}

  static VBox of(Mcp.Server server, McpSettings m) {
    Label name = new Label(ShownText.escaped(server.name()));
    name.getStyleClass().add("mcp-server-name");
    long waiting =
        server.tools().stream().filter(t -> !Mcp.Tool.ACCEPTED.equals(t.pin())).count();
    Label state = new Label(stateText(server));
    state.setId("settings-mcp-state-" + id(server.name()));
    state.getStyleClass().add("failed".equals(server.state()) ? "mcp-state-failed" : "mcp-state");
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    Button accept = new Button(waiting == 1 ? "Accept 1 tool" : "Accept " + waiting + " tools");
    accept.setId("settings-mcp-accept-" + id(server.name()));
    accept.setOnAction(e -> m.accept(server));
    accept.setVisible(waiting > 0);
    accept.setManaged(waiting > 0);
    McpReviews.Review review = m.review(server.name());
    if (!review.acceptIn().isZero()) {
      // Just changed: a click on its way was aimed at what was there before.
      accept.setDisable(true);
      javafx.animation.PauseTransition settle = new javafx.animation.PauseTransition(
          javafx.util.Duration.millis(review.acceptIn().toMillis()));
      settle.setOnFinished(e -> accept.setDisable(false));
      settle.play();
    }
    Button remove = new Button("Remove");
    remove.getStyleClass().add("small");
    remove.setId("settings-mcp-remove-" + id(server.name()));
    remove.setOnAction(e -> m.remove(server.name()));
    boolean waitsForSignIn = Mcp.Server.SIGN_IN_NEEDED.equals(server.state());
    Button signIn =
        new Button(Boolean.TRUE.equals(server.signedIn()) ? "Sign in again" : "Sign in…");
    signIn.setId("settings-mcp-sign-in-" + id(server.name()));
    javafx.scene.control.TextField clientId = new javafx.scene.control.TextField();
    clientId.setId("settings-mcp-client-id-" + id(server.name()));
    clientId.setPromptText("client ID, only if its provider gave you one");
    javafx.scene.control.PasswordField clientSecret = new javafx.scene.control.PasswordField();
    clientSecret.setId("settings-mcp-client-secret-" + id(server.name()));
    clientSecret.setPromptText("client secret (if any)");
    signIn.setOnAction(e -> m.signIn(server.name(), clientId.getText(), clientSecret.getText()));
    signIn.setVisible(waitsForSignIn);
    signIn.setManaged(waitsForSignIn);
    boolean signedIn = Boolean.TRUE.equals(server.signedIn()) && !waitsForSignIn;
    Button signOut = new Button("Sign out");
    signOut.getStyleClass().add("small");
    signOut.setId("settings-mcp-sign-out-" + id(server.name()));
    signOut.setOnAction(e -> m.signOut(server.name()));
    signOut.setVisible(signedIn);
    signOut.setManaged(signedIn);
    HBox head = new HBox(8, name, state, spacer, signIn, accept, signOut, remove);
    head.setAlignment(Pos.CENTER_LEFT);
    VBox card = new VBox(6, head);
    if (waitsForSignIn) {
      HBox client = new HBox(8, clientId, clientSecret);
      HBox.setHgrow(clientId, Priority.ALWAYS);
      card.getChildren().add(client);
    }
    card.getStyleClass().add("mcp-server");
    String program = m.program(server.name());
    if (!program.isEmpty()) {
      // What runs under this name: a pasted block can name a known server and run another thing.
      Label runs = new Label(("http".equals(server.transport()) ? "At " : "Runs ") + program);
      runs.setId("settings-mcp-program-" + id(server.name()));
      runs.getStyleClass().add("settings-hint");
      runs.setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
      runs.setTooltip(new javafx.scene.control.Tooltip(program));
      card.getChildren().add(runs);
    }
    if (review.changedWhileLooking() && waiting > 0) {
      Label changed = new Label("Changed while you were looking: the server described its tools"
          + " anew since they were first shown here. Read them again before you accept.");
      changed.setId("settings-mcp-changed-" + id(server.name()));
      changed.setWrapText(true);
      changed.getStyleClass().add("mcp-flag");
      card.getChildren().add(changed);
    }
    String said = server.problem();
    if (said != null && !"running".equals(server.state())) {
      Label problem = new Label(shownProblem(said));
      problem.setWrapText(true);
      problem.getStyleClass().add("settings-error");
      card.getChildren().add(problem);
    }
    if (!server.stderrTail().isEmpty() && "failed".equals(server.state())) {
      TextArea log = new TextArea(shownLog(server.stderrTail()));
      log.setEditable(false);
      log.setPrefRowCount(5);
      TitledPane pane =
          new TitledPane("Last lines of its log (" + ShownText.escaped(server.log()) + ")", log);
      pane.setExpanded(false);
      card.getChildren().add(pane);
    }
    card.getChildren().add(values(server, m));
    if (Boolean.FALSE.equals(server.sandboxed())) {
      Label open = new Label("Runs without a sandbox: it can read what you can, Steward's own"
          + " secrets included. Install bubblewrap (bwrap) and Steward keeps its folders from it.");
      open.setWrapText(true);
      open.getStyleClass().add("mcp-flag");
      card.getChildren().add(open);
    }
    for (Mcp.Tool tool : server.tools()) card.getChildren().add(toolRow(tool, m));
    return card;
  }

  /**
   * The server's kept values by name (never by value): each can be replaced or removed alone, and
   * one can be added, without pasting the whole entry again.
   */
  private static TitledPane values(Mcp.Server server, McpSettings m) {
    boolean http = "http".equals(server.transport());
    String sid = id(server.name());
    java.util.List<String> kept = server.keptEnv() == null ? java.util.List.of() : server.keptEnv();
    VBox rows = new VBox(6);
    if (!kept.isEmpty()) {
      Label env = new Label((http ? "Headers: " : "Environment: ") + shownNames(kept)
          + " — the values are kept in config/secrets.json and never shown");
      env.setId("mcp-env-" + sid);
      env.setWrapText(true);
      env.getStyleClass().add("settings-hint");
      rows.getChildren().add(env);
    }
    for (String name : kept) {
      String vid = sid + "--" + id(name);
      Label label = new Label(ShownText.escaped(name));
      label.setMinWidth(160);
      javafx.scene.control.PasswordField value = new javafx.scene.control.PasswordField();
      value.setId("settings-mcp-value-" + vid);
      value.setPromptText("new value");
      value.textProperty().bindBidirectional(m.draft(server.name(), name));
      HBox.setHgrow(value, Priority.ALWAYS);
      Button replace = new Button("Replace");
      replace.getStyleClass().add("small");
      replace.setId("settings-mcp-value-set-" + vid);
      replace.setOnAction(e -> m.setValue(server.name(), name, value.getText()));
      Button remove = new Button("Remove");
      remove.getStyleClass().add("small");
      remove.setId("settings-mcp-value-remove-" + vid);
      remove.setOnAction(e -> m.setValue(server.name(), name, null));
      HBox row = new HBox(8, label, value, replace, remove);
      row.setAlignment(Pos.CENTER_LEFT);
      rows.getChildren().add(row);
    }
    javafx.scene.control.TextField name = new javafx.scene.control.TextField();
    name.setId("settings-mcp-value-name-" + sid);
    name.setPromptText(http ? "header name" : "variable name");
    name.textProperty().bindBidirectional(m.draft(server.name(), McpSettings.NEW_NAME));
    name.setMinWidth(160);
    javafx.scene.control.PasswordField value = new javafx.scene.control.PasswordField();
    value.setId("settings-mcp-value-new-" + sid);
    value.setPromptText("value");
    value.textProperty().bindBidirectional(m.draft(server.name(), McpSettings.NEW_VALUE));
    HBox.setHgrow(value, Priority.ALWAYS);
    Button add = new Button("Add");
    add.getStyleClass().add("small");
    add.setId("settings-mcp-value-add-" + sid);
    add.setOnAction(e -> m.setValue(server.name(), name.getText().strip(), value.getText()));
    HBox adding = new HBox(8, name, value, add);
    adding.setAlignment(Pos.CENTER_LEFT);
    rows.getChildren().add(adding);
    TitledPane pane = new TitledPane(
        (http ? "Headers" : "Environment values")
            + (kept.isEmpty() ? "" : " (" + kept.size() + ")"),
        rows);
    pane.setId("settings-mcp-values-" + sid);
    // Made again on every change of the servers: an animation would replay each time.
    pane.setAnimated(false);
    pane.expandedProperty().bindBidirectional(m.valuesShown(server.name()));
    return pane;
  }

  /**
   * What went wrong, on one line: a server's own words (its JSON-RPC error's message) are among
   * them, so what could hide or reorder text is written out as in the chat's prose.
   */
  static String shownProblem(String problem) {
    return ProseText.oneLine(problem);
  }

  /** The end of a server's log in its lines, every hidden character written out, as code is. */
  static String shownLog(java.util.List<String> lines) {
    return ShownText.escapedKeepingLines(String.join("\n", lines));
  }

  /** Names of kept values (from a paste): each exactly, hidden characters written out. */
  static String shownNames(java.util.List<String> names) {
    return names.stream()
        .map(ShownText::escaped)
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** A node id from a name: CSS selectors read dots as classes. */
  static String id(String name) {
    return name.replaceAll("[^A-Za-z0-9_-]", "-");
  }

  private static String stateText(Mcp.Server s) {
    int n = s.tools().size();
    return switch (s.state()) {
      case "running" -> "running · " + Counted.of(n, "tool", "tools");
      case "starting" -> "starting…";
      case "failed" -> "not running";
      case Mcp.Server.SIGN_IN_NEEDED -> "waits for you to sign in";
      default -> s.state();
    };
  }

  /**
   * What the tool is called with, as the assistant reads it: the whole input schema, whose
   * argument names and descriptions are words of the server's too. Open for a tool to review.
   */
  private static TitledPane arguments(Mcp.Tool tool) {
    String schema = dev.steward.protocol.json.Json.prettyVisible(tool.inputSchema());
    TextArea text = new TextArea(schema);
    text.setEditable(false);
    text.setWrapText(true);
    text.setPrefRowCount((int) Math.min(10, schema.lines().count()));
    text.getStyleClass().add("mcp-tool-schema");
    TitledPane pane = new TitledPane("Its arguments, as the assistant reads them", text);
    pane.setId("settings-mcp-args-" + id(tool.name()));
    pane.setExpanded(!Mcp.Tool.ACCEPTED.equals(tool.pin()));
    pane.setAnimated(false);
    return pane;
  }

  /**
   * The server's name for a tool, or its title, on one line with hidden characters written out as
   * the chat writes them in prose ({@link ProseText}): flagged is not enough, the user must see
   * what is there — and a title in Persian or with an emoji must still read as written.
   */
  static String shownTitle(Mcp.Tool tool) {
    return ProseText.oneLine(tool.title() != null ? tool.title() : tool.serverName());
  }

  /** A tool's description as its server wrote it, in lines, as {@link #shownTitle} writes it. */
  static String shownDescription(Mcp.Tool tool) {
    return ProseText.shown(tool.description());
  }

  private static VBox toolRow(Mcp.Tool tool, McpSettings m) {
    Label title = new Label(shownTitle(tool));
    Label kind = new Label((tool.readOnly() ? "reads only" : "can change things")
        + (tool.sends() ? " · can send data off the machine" : ""));
    kind.getStyleClass().add("settings-hint");
    HBox line = new HBox(8, title, kind);
    line.setAlignment(Pos.CENTER_LEFT);
    if (!Mcp.Tool.ACCEPTED.equals(tool.pin())) {
      Label badge = new Label(Mcp.Tool.CHANGED.equals(tool.pin()) ? "changed — look again" : "new");
      badge.setId("settings-mcp-pin-" + id(tool.name()));
      badge.getStyleClass().add("mcp-badge");
      line.getChildren().add(badge);
    }
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    ComboBox<McpSettings.Rating> rating = new ComboBox<>();
    rating.getItems().setAll(McpSettings.Rating.values());
    rating.setId("settings-mcp-rate-" + id(tool.name()));
    rating.setConverter(new StringConverter<>() {
      @Override
      public String toString(McpSettings.@Nullable Rating r) {
        if (r == null) return "";
        if (r == McpSettings.Rating.HINTS)
          return tool.readOnly()
              ? "Runs without asking (reads only)"
              : "Asks first (can change things)";
        return r.label();
      }

      @Override
      public McpSettings.@Nullable Rating fromString(String s) {
        return null;
      }
    });
    rating.setValue(m.rating(tool.name()));
    rating.valueProperty().addListener((o, was, now) -> {
      if (now != null && now != was) m.rate(tool.name(), now);
    });
    line.getChildren().addAll(spacer, rating);
    Label description = new Label(shownDescription(tool));
    description.setWrapText(true);
    description.getStyleClass().add("mcp-tool-description");
    // A flag, and what keeps the tool from running, stand under the words they are about,
    // before the arguments' block (open, and tall, for a tool not yet accepted): read with them.
    VBox row = new VBox(2, line, description);
    for (String flag : tool.flags()) {
      Label f = new Label("⚠ " + flag);
      f.setWrapText(true);
      f.getStyleClass().add("mcp-flag");
      row.getChildren().add(f);
    }
    String toolProblem = tool.problem();
    if (toolProblem != null) {
      Label p = new Label(shownProblem(toolProblem));
      p.setWrapText(true);
      p.getStyleClass().add("mcp-flag");
      row.getChildren().add(p);
    }
    row.getChildren().add(arguments(tool));
    return row;
  }
}
