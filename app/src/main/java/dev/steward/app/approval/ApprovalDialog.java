package dev.steward.app.approval;

import dev.steward.app.syntax.HighlightedCode;
import dev.steward.protocol.util.Counted;
import javafx.animation.KeyFrame;
import javafx.animation.PauseTransition;
import javafx.animation.Timeline;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The confirmation dialog (SPEC §8): for each call, what will happen in plain words, tool, risk,
 * scopes, where untrusted content came from, the diff of an overwrite and the arguments to edit;
 * a countdown; Approve once / Always allow here (not for high risk) / Deny. What each call shows
 * is the gate's preview of the arguments in its editor, redone on every edit; Approve waits for
 * it. Keys: Esc denies; Enter (outside the argument editor) approves — or, when anything is high
 * risk (as the gate judges the arguments now in the editor), denies, and approving takes the
 * deliberate Ctrl+Enter or a click (Space on Approve does nothing then); Tab leaves the argument
 * editor.
 * Approve stays off for half a second after the dialog appears (another client's, or one shown
 * just after another closed, a second and a half).
 */
public final class ApprovalDialog {

  /** Long enough to swallow a key or click already under way, short enough not to be noticed. */
  private static final Duration ARMING_DELAY = Duration.millis(500);

  /**
   * Another client's dialog comes unprompted, maybe while the user types in the chat, and a dialog
   * in the place of one just closed where the user's click may be on its way: a key or click meant
   * for something else must not approve it, so it waits longer before one can.
   */
  private static final Duration ARMING_DELAY_UNPROMPTED = Duration.millis(1500);

  /** The countdown warns from here on. */
  private static final long ENDING_SECONDS = 10;

  private final ApprovalViewModel model;
  private final Stage stage = new Stage();
  private final Timeline countdown;
  private final Button approve = new Button("Approve once");
  private final Button always = new Button("Always allow here");
  private final Button deny = new Button("Deny");
  private final java.util.List<TextArea> editors = new java.util.ArrayList<>();

  public ApprovalDialog(ApprovalViewModel model, @Nullable Window owner) {
    this.model = model;
    stage.setTitle(model.title());
    if (owner != null) {
      stage.initOwner(owner);
      stage.initModality(Modality.WINDOW_MODAL);
    }
    VBox calls = new VBox(12);
    for (ApprovalItem item : model.items())
      calls.getChildren().add(itemView(item, model.items().size() > 1));
    ScrollPane scroll = new ScrollPane(calls);
    scroll.setFitToWidth(true);
    VBox.setVgrow(scroll, Priority.ALWAYS);

    Label timer = new Label();
    timer.getStyleClass().add("approval-countdown");
    timer.setId("approval-countdown");
    // The last seconds are said plainly, so a dialog left open does not lapse unnoticed.
    timer
        .textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> {
              long left = model.secondsLeftProperty().get();
              return left <= ENDING_SECONDS
                  ? "Only " + left + " s left: after that nothing runs (you can ask again)"
                  : "This approval expires in " + left + " s";
            },
            model.secondsLeftProperty()));
    model.secondsLeftProperty().addListener((o, was, now) -> {
      boolean ending = now.longValue() <= ENDING_SECONDS;
      if (ending && !timer.getStyleClass().contains("ending"))
        timer.getStyleClass().add("ending");
      if (!ending) timer.getStyleClass().remove("ending");
    });
    approve
        .textProperty()
        .bind(javafx.beans.binding.Bindings.when(model.highRiskProperty())
            .then("Approve once (Ctrl+Enter)")
            .otherwise("Approve once (Enter)"));
    deny.textProperty()
        .bind(javafx.beans.binding.Bindings.when(model.highRiskProperty())
            .then("Deny (Enter, Esc)")
            .otherwise("Deny (Esc)"));
    approve.setMinWidth(Region.USE_PREF_SIZE);
    deny.setMinWidth(Region.USE_PREF_SIZE);
    always.setMinWidth(Region.USE_PREF_SIZE);
    approve.setId("approve");
    approve.getStyleClass().add("accent");
    approve.setDefaultButton(false);
    approve.disableProperty().bind(model.canApproveProperty().not());
    approve.setOnAction(e -> model.approve());
    always.setId("always");
    Label covers = new Label(model.alwaysAllowCovers());
    covers.setId("always-covers");
    covers.getStyleClass().add("approval-meta");
    covers.setWrapText(true);
    covers.visibleProperty().bind(model.canAlwaysAllowProperty());
    covers.managedProperty().bind(covers.visibleProperty());
    model
        .canAlwaysAllowProperty()
        .addListener((o, was, now) -> covers.setText(model.alwaysAllowCovers()));
    javafx.scene.control.ComboBox<GrantSpan> span = new javafx.scene.control.ComboBox<>(
        javafx.collections.FXCollections.observableArrayList(GrantSpan.values()));
    span.setId("always-span");
    span.valueProperty().bindBidirectional(model.grantSpanProperty());
    span.setMinWidth(Region.USE_PREF_SIZE);
    span.visibleProperty().bind(model.canAlwaysAllowProperty());
    span.managedProperty().bind(span.visibleProperty());
    model
        .grantSpanProperty()
        .addListener((o, was, now) -> covers.setText(model.alwaysAllowCovers()));
    always.setTooltip(new javafx.scene.control.Tooltip(
        "Approve, and from now on let these tools run in these folders without asking"));
    always.visibleProperty().bind(model.canAlwaysAllowProperty());
    always.managedProperty().bind(always.visibleProperty());
    always.setOnAction(e -> model.alwaysAllow());
    deny.setId("deny");
    deny.getStyleClass().add("danger");
    deny.setOnAction(e -> model.deny());
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    HBox buttons = new HBox(8, timer, spacer, deny, always, approve);
    buttons.setAlignment(Pos.CENTER_LEFT);

    HBox.setHgrow(covers, Priority.ALWAYS);
    HBox coversRow = new HBox(8, covers, span);
    coversRow.setAlignment(Pos.CENTER_LEFT);
    VBox root = new VBox(12, scroll, coversRow, buttons);
    if (model.items().size() > 1) root.getChildren().add(1, summary(model));
    String asker = model.asker();
    if (asker != null) {
      // Not Steward's own assistant: said in the body as well as the title, above the call.
      Label who = new Label(asker
          + " asks for this call, not Steward's own assistant. Approve it only if you asked that"
          + " client for it. (The name is the client's own word: Steward cannot check it.)");
      who.setId("approval-asker");
      who.setWrapText(true);
      who.getStyleClass().add("approval-taint");
      root.getChildren().add(0, who);
    }
    String again = model.shownAgain();
    if (again != null) {
      // Above all else: the user clicked once on something that is no longer so.
      Label changed = new Label(again);
      changed.setId("approval-shown-again");
      changed.setWrapText(true);
      changed.getStyleClass().add("approval-taint");
      root.getChildren().add(0, changed);
    }
    String replaces = model.replacesWithdrawn();
    if (replaces != null) {
      // Above all else: the click the user was about to make was meant for another request.
      Label other = new Label(replaces);
      other.setId("approval-replaces");
      other.setWrapText(true);
      other.getStyleClass().add("approval-taint");
      root.getChildren().add(0, other);
    }
    root.setPadding(new Insets(16));
    root.getStyleClass().add("approval-dialog");
    Scene scene = new Scene(root, 640, Math.min(720, 260 + 240 * model.items().size()));
    scene
        .getStylesheets()
        .addAll(
            owner == null || owner.getScene() == null
                ? java.util.List.of()
                : owner.getScene().getStylesheets());
    scene.addEventFilter(KeyEvent.KEY_PRESSED, this::keys);
    scene.addEventFilter(KeyEvent.KEY_PRESSED, this::noSpaceOnHighApprove);
    scene.addEventFilter(KeyEvent.KEY_RELEASED, this::noSpaceOnHighApprove);
    stage.setScene(scene);
    stage.setOnCloseRequest(e -> model.deny());

    countdown = new Timeline(new KeyFrame(Duration.millis(250), e -> model.tick()));
    countdown.setCycleCount(Timeline.INDEFINITE);
    // A dialog can go without a close request (its owner hidden by the hotkey takes it along):
    // never silently — unanswered, it is a no, which the chat's card then says.
    stage.setOnHidden(e -> {
      countdown.stop();
      if (!model.answer().isDone()) model.deny();
    });
    PauseTransition arming =
        new PauseTransition(model.armsSlowly() ? ARMING_DELAY_UNPROMPTED : ARMING_DELAY);
    arming.setOnFinished(e -> model.arm());
    stage.setOnShown(e -> arming.play());
    // However the answer comes (a click, a key, the countdown, Stop), the dialog closes.
    model.answer().whenComplete((a, e) -> javafx.application.Platform.runLater(this::close));
  }

  /**
   * What Approve runs, each ticked call in one line, outside the scrolling list: a call below the
   * fold is approved with those in view, so it must be named where the button is.
   */
  private static Label summary(ApprovalViewModel model) {
    Label summary = new Label();
    summary.setId("approval-summary");
    summary.setWrapText(true);
    summary.getStyleClass().add("approval-meta");
    java.util.List<javafx.beans.Observable> on = new java.util.ArrayList<>();
    for (ApprovalItem i : model.items()) {
      on.add(i.inWordsProperty());
      on.add(i.tickedProperty());
    }
    summary
        .textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> {
              java.util.List<String> lines = new java.util.ArrayList<>();
              for (ApprovalItem i : model.items())
                if (i.tickedProperty().get())
                  lines.add("• " + i.inWordsProperty().get());
              return "Approve runs " + lines.size() + " of "
                  + Counted.of(model.items().size(), "call", "calls") + ":\n"
                  + String.join("\n", lines);
            },
            on.toArray(javafx.beans.Observable[]::new)));
    return summary;
  }

  private VBox itemView(ApprovalItem item, boolean several) {
    VBox box = new VBox(6);
    box.getStyleClass().add("approval-item");
    HBox head = new HBox(8);
    head.setAlignment(Pos.CENTER_LEFT);
    if (several) {
      CheckBox tick = new CheckBox();
      tick.setId("tick-" + item.pending().call().callId());
      tick.selectedProperty().bindBidirectional(item.tickedProperty());
      head.getChildren().add(tick);
    }
    Label words = new Label();
    words.setId("words-" + item.pending().call().callId());
    words.textProperty().bind(item.inWordsProperty());
    words.getStyleClass().add("approval-words");
    words.setWrapText(true);
    Label risk = new Label();
    risk.setId("risk-" + item.pending().call().callId());
    risk.textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> item.risk().wire(), item.riskProperty()));
    risk.getStyleClass().addAll("risk-badge", "risk-" + item.risk().wire());
    item.riskProperty().addListener((o, was, now) -> {
      risk.getStyleClass().remove("risk-" + was.wire());
      risk.getStyleClass().add("risk-" + now.wire());
    });
    risk.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    head.getChildren().addAll(risk, words);
    box.getChildren().add(head);

    Label tool = meta("");
    tool.textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> dev.steward.protocol.util.ShownText.escaped(item.tool() + " — " + item.reason()),
            item.shownProperty()));
    box.getChildren().add(tool);
    Label touches = meta("");
    touches.setId("touches-" + item.pending().call().callId());
    touches
        .textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> "Touches: " + String.join(", ", item.scopes()), item.scopesProperty()));
    touches
        .visibleProperty()
        .bind(javafx.beans.binding.Bindings.createBooleanBinding(
            () -> !item.scopes().isEmpty(), item.scopesProperty()));
    touches.managedProperty().bind(touches.visibleProperty());
    box.getChildren().add(touches);
    if (!item.taint().isEmpty()) {
      Label taint = meta(
          "Untrusted content in this conversation came from: " + String.join(", ", item.taint()));
      taint.getStyleClass().add("approval-taint");
      box.getChildren().add(taint);
    }
    Label changes = meta("Changes:");
    TextArea diff = new TextArea();
    diff.setId("diff-" + item.pending().call().callId());
    diff.getStyleClass().add("approval-diff");
    diff.setEditable(false);
    diff.setFocusTraversable(false);
    diff.textProperty().bind(item.diffProperty());
    diff.prefRowCountProperty()
        .bind(javafx.beans.binding.Bindings.createIntegerBinding(
            () -> Math.min(12, (int) item.diff().lines().count() + 1), item.diffProperty()));
    diff.visibleProperty().bind(item.diffProperty().isNotEmpty());
    diff.managedProperty().bind(diff.visibleProperty());
    changes.visibleProperty().bind(diff.visibleProperty());
    changes.managedProperty().bind(diff.visibleProperty());
    box.getChildren().addAll(changes, diff);
    box.getChildren().add(programView(item));
    TextArea args = new TextArea();
    args.setId("args-" + item.pending().call().callId());
    args.getStyleClass().add("approval-args");
    args.textProperty().bindBidirectional(item.argsTextProperty());
    args.setPrefRowCount(Math.min(8, (int) item.argsTextProperty().get().lines().count() + 1));
    // Tab moves on, as in every other field: a tab character is never needed in JSON.
    editors.add(args);
    args.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
      if (e.getCode() == KeyCode.TAB && !e.isControlDown()) {
        e.consume();
        moveFocus(args, !e.isShiftDown());
      }
    });
    Label problem = new Label();
    problem.setId("problem-" + item.pending().call().callId());
    problem.getStyleClass().add("approval-problem");
    problem.textProperty().bind(item.problemProperty());
    problem.setWrapText(true);
    problem.setMinHeight(Region.USE_PREF_SIZE);
    problem.visibleProperty().bind(item.problemProperty().isNotEmpty());
    problem.managedProperty().bind(problem.visibleProperty());
    box.getChildren().addAll(meta("Arguments (you can edit them):"), args, problem);
    return box;
  }

  /**
   * The program a code run will run, coloured, from the gate's preview of exactly the arguments
   * in the editor (it follows every edit); hidden for other calls.
   */
  private static VBox programView(ApprovalItem item) {
    Label heading = meta("");
    HighlightedCode code = new HighlightedCode();
    code.setId("code-" + item.pending().call().callId());
    ScrollPane scroll = scrolled(code, false, 280);
    Label inputHeading = meta("What it is given (a program may run what it is given):");
    Label input = new Label();
    input.setId("given-" + item.pending().call().callId());
    input.getStyleClass().add("approval-given");
    input.setWrapText(true);
    ScrollPane inputScroll = scrolled(input, true, 160);
    VBox box = new VBox(4, heading, scroll, inputHeading, inputScroll);
    Runnable show = () -> {
      ApprovalItem.Program p = item.programProperty().get();
      box.setVisible(p != null);
      box.setManaged(p != null);
      if (p == null) return;
      heading.setText(
          "Code that will run (" + (p.language().isEmpty() ? "code" : p.language()) + "):");
      code.show(p.language(), p.code());
      String given = p.given();
      input.setText(given != null ? given : "");
      for (javafx.scene.Node n : java.util.List.of(inputHeading, inputScroll)) {
        n.setVisible(given != null);
        n.setManaged(given != null);
      }
    };
    item.programProperty().addListener((o, was, now) -> show.run());
    show.run();
    return box;
  }

  /**
   * {@code content} in a scroll pane as tall as it is, up to {@code maxHeight} (a screenful's part):
   * longer, it scrolls; {@code fitWidth} for text that wraps.
   */
  private static ScrollPane scrolled(
      javafx.scene.layout.Region content, boolean fitWidth, double maxHeight) {
    ScrollPane scroll = new ScrollPane(content);
    scroll.getStyleClass().add("approval-code-scroll");
    scroll.setFitToWidth(fitWidth);
    scroll.setFocusTraversable(false);
    content
        .layoutBoundsProperty()
        .addListener(
            (o, was, now) -> scroll.setPrefViewportHeight(Math.min(now.getHeight(), maxHeight)));
    return scroll;
  }

  private static Label meta(String text) {
    Label l = new Label(text);
    l.getStyleClass().add("approval-meta");
    l.setWrapText(true);
    return l;
  }

  private void keys(KeyEvent e) {
    if (e.getCode() == KeyCode.ESCAPE) {
      model.deny();
      e.consume();
    } else if (e.getCode() == KeyCode.ENTER && e.isShortcutDown()) {
      model.approve();
      e.consume();
    } else if (e.getCode() == KeyCode.ENTER && !(e.getTarget() instanceof TextArea)) {
      if (model.focusDenyFirst() || e.getTarget() == deny) model.deny();
      else if (e.getTarget() == always) model.alwaysAllow();
      else model.approve();
      e.consume();
    }
  }

  /**
   * A button fires on Space too: for a high-risk call, Approve takes only the deliberate
   * Ctrl+Enter or a click, so Space on it does nothing (pressed and released both, or the button
   * would be left armed).
   */
  private void noSpaceOnHighApprove(KeyEvent e) {
    if (e.getCode() == KeyCode.SPACE && e.getTarget() == approve && model.focusDenyFirst())
      e.consume();
  }

  /** From an argument editor: to the next call's editor, and after the last to Approve (or Deny while Approve waits). */
  private void moveFocus(TextArea from, boolean forward) {
    int i = editors.indexOf(from) + (forward ? 1 : -1);
    if (i >= 0 && i < editors.size()) editors.get(i).requestFocus();
    else
      (approve.isDisabled() ? deny : approve)
          .requestFocus(); // back from the first: round to the buttons
  }

  public void show() {
    countdown.play();
    stage.show();
    if (model.focusDenyFirst()) {
      deny.requestFocus();
    } else if (!approve.isDisabled()) {
      approve.requestFocus();
    } else {
      // Approve waits for the window's own preview; it takes the focus when that arrives, unless
      // the user has already gone somewhere with a key or the mouse.
      boolean[] touched = {false};
      stage.getScene().addEventFilter(KeyEvent.KEY_PRESSED, e -> touched[0] = true);
      stage
          .getScene()
          .addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> touched[0] = true);
      deny.requestFocus();
      approve.disabledProperty().addListener(new javafx.beans.value.ChangeListener<>() {
        @Override
        public void changed(
            javafx.beans.value.ObservableValue<? extends Boolean> o, Boolean was, Boolean now) {
          if (now) return;
          approve.disabledProperty().removeListener(this);
          if (!touched[0]) approve.requestFocus();
        }
      });
    }
  }

  public Stage stage() {
    return stage;
  }

  private void close() {
    countdown.stop();
    stage.close();
  }
}
