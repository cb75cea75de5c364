package dev.steward.app.chat;

import dev.steward.app.agent.CallState;
import dev.steward.protocol.util.Counted;
import dev.steward.protocol.util.ShownText;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** A tool call card: tool, summary, risk badge and state; details (arguments, result) on demand. */
final class CallCardView extends VBox {

  CallCardView(CallCard card, Runnable showInAudit, Runnable askAgain) {
    setId("card-" + card.callId());
    getStyleClass().add("call-card");
    Label tool = new Label(card.tool());
    tool.getStyleClass().add("call-tool");
    Label risk = new Label(card.risk().wire());
    risk.getStyleClass().addAll("risk-badge", "risk-" + card.risk().wire());
    risk.setMinWidth(Region.USE_PREF_SIZE);
    Label state = new Label();
    state.getStyleClass().add("call-state");
    state.setId("state-" + card.callId());
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    HBox head = new HBox(8, tool, risk, spacer, state);
    head.setAlignment(Pos.CENTER_LEFT);

    Label summary = new Label();
    summary.getStyleClass().add("call-summary");
    // What a card quotes — the model's arguments, a tool's result — cannot hide part of itself.
    summary.textProperty().bind(shown(card.summaryProperty(), ShownText::escaped));
    Label detail = new Label();
    detail.setId("detail-" + card.callId());
    detail.getStyleClass().add("call-detail");
    detail.setWrapText(true);
    // A detail may quote what a server said (its error): one line, every character as itself.
    detail.textProperty().bind(shown(card.detailProperty(), CallCardView::oneLine));
    detail.visibleProperty().bind(card.detailProperty().isNotEmpty());
    detail.managedProperty().bind(detail.visibleProperty());

    TextArea args = new TextArea();
    args.setEditable(false);
    args.setPrefRowCount(4);
    args.textProperty().bind(shown(card.argumentsProperty(), ShownText::escapedKeepingLines));
    TextArea result = new TextArea();
    result.setEditable(false);
    result.setPrefRowCount(4);
    result.setWrapText(true);
    result.textProperty().bind(shown(card.shownResultProperty(), ShownText::escapedKeepingLines));
    Button all = new Button();
    all.setId("show-all-" + card.callId());
    all.getStyleClass().add("small");
    all.textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> "Show all " + size(card.resultProperty().get()), card.resultProperty()));
    all.setOnAction(e -> card.showAll());
    all.visibleProperty().bind(card.cutProperty());
    all.managedProperty().bind(all.visibleProperty());
    VBox details = new VBox(4, new Label("Arguments"), args, new Label("Result"), result, all);
    TitledPane expander = new TitledPane("Details", details);
    // Collapsed, it says how much there is to see.
    expander
        .textProperty()
        .bind(javafx.beans.binding.Bindings.createStringBinding(
            () -> card.resultProperty().get().isEmpty()
                ? "Details"
                : "Details — result " + size(card.resultProperty().get()),
            card.resultProperty()));
    expander.setExpanded(false);
    expander.getStyleClass().add("call-details");

    // A finished call has its rows in the audit log (a declined one its "denied" row).
    Hyperlink audit = new Hyperlink("Show in audit log");
    audit.setId("audit-link-" + card.callId());
    audit.getStyleClass().add("call-audit-link");
    audit.setOnAction(e -> showInAudit.run());
    audit
        .visibleProperty()
        .bind(javafx.beans.binding.Bindings.createBooleanBinding(
            () -> card.state().finished(), card.stateProperty()));
    audit.managedProperty().bind(audit.visibleProperty());

    Button again = new Button("Ask again");
    again.setId("ask-again-" + card.callId());
    again.getStyleClass().add("small");
    again.setOnAction(e -> askAgain.run());
    again.visibleProperty().bind(card.askAgainOfferedProperty());
    again.managedProperty().bind(again.visibleProperty());
    HBox links = new HBox(8, again, audit);
    links.setAlignment(Pos.CENTER_LEFT);

    getChildren().addAll(head, summary, detail, expander, links);
    showState(card.state(), state);
    card.stateProperty().addListener((o, was, now) -> showState(now, state));
  }

  private static String size(String text) {
    int bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    return bytes < 1024
        ? Counted.of(bytes, "byte", "bytes")
        : String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1024.0);
  }

  private void showState(CallState s, Label label) {
    label.setText(s.label());
    for (CallState each : CallState.values())
      getStyleClass().remove("state-" + each.name().toLowerCase(java.util.Locale.ROOT));
    getStyleClass().add("state-" + s.name().toLowerCase(java.util.Locale.ROOT));
  }

  /** The longest detail a card shows; the model and the audit log have the whole. */
  static final int DETAIL_SHOWN = 600;

  static String oneLine(String text) {
    // Line breaks and runs of blanks (which wrap a label onto a line of its own) as one space.
    String line = ShownText.escaped(text.strip().replaceAll("[\\s\\p{Z}\\u0085]+", " "));
    if (line.length() <= DETAIL_SHOWN) return line;
    int cut =
        Character.isHighSurrogate(line.charAt(DETAIL_SHOWN - 1)) ? DETAIL_SHOWN - 1 : DETAIL_SHOWN;
    return line.substring(0, cut) + "…";
  }

  private static javafx.beans.binding.StringBinding shown(
      javafx.beans.value.ObservableStringValue text,
      java.util.function.UnaryOperator<String> escape) {
    return javafx.beans.binding.Bindings.createStringBinding(
        () -> text.get() == null ? "" : escape.apply(text.get()), text);
  }
}
