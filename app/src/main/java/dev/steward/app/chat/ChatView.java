package dev.steward.app.chat;

import dev.steward.app.markdown.MarkdownView;
import dev.steward.protocol.service.ServiceState;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The chat window's content: a header with the service's and the model's state, the banner, the
 * conversation, and the input (Enter sends, Shift+Enter starts a new line) with Send and Stop.
 */
public final class ChatView extends BorderPane {

  /** The reading column's widest, as in the peers: lines stay short enough to read. */
  static final double READING_WIDTH = 860;

  private static final double USER_WIDTH = 600;
  private static final java.time.format.DateTimeFormatter TIME =
      java.time.format.DateTimeFormatter.ofLocalizedTime(java.time.format.FormatStyle.SHORT);
  private static final java.time.format.DateTimeFormatter WHEN =
      java.time.format.DateTimeFormatter.ofLocalizedDateTime(
          java.time.format.FormatStyle.FULL, java.time.format.FormatStyle.SHORT);

  /**
   * The entries a conversation is opened with, its newest: each takes a few milliseconds to lay out
   * (its Markdown), and a long conversation drawn whole would take seconds to appear. Earlier ones
   * are drawn on asking, as many again at a time (ADR 45).
   */
  public static final int PAGE = 30;

  private final ChatViewModel model;
  private final VBox conversation = new VBox(10);
  private final Button earlier = new Button();
  private final ScrollPane scroll =
      new ScrollPane(centred(new VBox(earlierRow(earlier), conversation)));
  /** The model's index of the first entry drawn: {@code conversation}'s children start there. */
  private int shownFrom;
  /** Set while earlier entries are drawn above: the view keeps its place rather than its end. */
  private boolean holdingPlace;

  public ChatView(ChatViewModel model) {
    this.model = model;
    getStyleClass().add("chat-view");
    setTop(new VBox(header(), banner(), findBar()));
    setCenter(conversationPane());
    setBottom(new VBox(thinking(), inputBar()));
    earlier.setOnAction(e -> drawEarlier(shownFrom - PAGE));
    drawNewest();
    model.entries().addListener((ListChangeListener<ChatEntry>) this::entriesChanged);
  }

  private static Node earlierRow(Button earlier) {
    earlier.setId("show-earlier");
    earlier.getStyleClass().add("flat");
    earlier.managedProperty().bind(earlier.visibleProperty());
    HBox row = new HBox(earlier);
    row.setAlignment(Pos.CENTER);
    row.managedProperty().bind(earlier.visibleProperty());
    row.visibleProperty().bind(earlier.visibleProperty());
    return row;
  }

  /** Draws the conversation anew, from its newest {@link #PAGE} entries. */
  private void drawNewest() {
    List<ChatEntry> all = model.entries();
    shownFrom = Math.max(0, all.size() - PAGE);
    List<Node> views = new java.util.ArrayList<>(all.size() - shownFrom);
    for (ChatEntry e : all.subList(shownFrom, all.size())) views.add(viewOf(e));
    conversation.getChildren().setAll(views);
    showEarlierButton();
  }

  /** Draws the entries from {@code from} (at least one page's worth) up to the first drawn, in place. */
  private void drawEarlier(int from) {
    int start = Math.max(0, Math.min(from, shownFrom - PAGE));
    if (start >= shownFrom) return;
    double range = scrollRange();
    double fromBottom = range > 0 ? (1 - scroll.getVvalue()) * range : 0;
    List<Node> views = new java.util.ArrayList<>(shownFrom - start);
    for (ChatEntry e : model.entries().subList(start, shownFrom)) views.add(viewOf(e));
    conversation.getChildren().addAll(0, views);
    shownFrom = start;
    showEarlierButton();
    layOutInPlace();
    double grown = scrollRange();
    if (grown > 0) scroll.setVvalue(Math.max(0, Math.min(1, (grown - fromBottom) / grown)));
  }

  /**
   * Lays the window out now, so that a place to scroll to is measured on what will be shown, and
   * without the conversation's growth taking the view to its end.
   */
  private void layOutInPlace() {
    javafx.scene.Parent root = getScene() == null ? this : getScene().getRoot();
    holdingPlace = true;
    try {
      root.applyCss();
      root.layout();
    } finally {
      holdingPlace = false;
    }
  }

  /** How far the conversation scrolls: its content's height past the viewport's. */
  private double scrollRange() {
    return scroll.getContent().getLayoutBounds().getHeight()
        - scroll.getViewportBounds().getHeight();
  }

  private void showEarlierButton() {
    earlier.setText("Show earlier messages (" + shownFrom + " more)");
    // Focus left on a button as it hides moves to the next entry's, and the scroll pane brings
    // that into view: the place just kept would be lost.
    if (shownFrom == 0 && earlier.isFocused()) scroll.requestFocus();
    earlier.setVisible(shownFrom > 0);
  }

  /** Ctrl+F: a text to find, n of m, Enter for the next (Shift+Enter the one before), Esc closes. */
  private Node findBar() {
    javafx.scene.control.TextField text = new javafx.scene.control.TextField();
    text.setId("find-text");
    text.setPromptText("Find in this conversation");
    text.textProperty().bindBidirectional(model.findTextProperty());
    HBox.setHgrow(text, Priority.ALWAYS);
    Label status = new Label();
    status.setId("find-status");
    status.setMinWidth(Region.USE_PREF_SIZE);
    status.textProperty().bind(model.findStatusProperty());
    javafx.scene.control.Button next = new javafx.scene.control.Button("Next");
    next.setId("find-next");
    next.setMinWidth(Region.USE_PREF_SIZE);
    next.setOnAction(e -> model.findNext());
    javafx.scene.control.Button close = new javafx.scene.control.Button("Close");
    close.setId("find-close");
    close.setMinWidth(Region.USE_PREF_SIZE);
    close.setOnAction(e -> model.closeFind());
    text.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
      if (e.getCode() == KeyCode.ENTER) {
        if (e.isShiftDown()) model.findPrevious();
        else model.findNext();
        e.consume();
      } else if (e.getCode() == KeyCode.ESCAPE) {
        model.closeFind();
        e.consume();
      }
    });
    HBox bar = new HBox(8, text, status, next, close);
    bar.setId("find-bar");
    bar.setAlignment(Pos.CENTER_LEFT);
    bar.setPadding(new Insets(6, 14, 6, 14));
    bar.getStyleClass().add("find-bar");
    bar.visibleProperty().bind(model.findOpenProperty());
    bar.managedProperty().bind(bar.visibleProperty());
    model.findOpenProperty().addListener((o, was, now) -> {
      if (now) {
        text.requestFocus();
        text.selectAll();
      }
    });
    model.foundProperty().addListener((o, was, now) -> showFound(now.intValue()));
    return bar;
  }

  /** Marks the entry the find bar points at and scrolls it into view. */
  private void showFound(int index) {
    conversation.getChildren().forEach(n -> n.getStyleClass().remove("found"));
    if (index < 0 || index >= model.entries().size()) return;
    if (index < shownFrom) drawEarlier(index);
    if (index - shownFrom >= conversation.getChildren().size()) return;
    Node node = conversation.getChildren().get(index - shownFrom);
    node.getStyleClass().add("found");
    // A conversation just opened, or the find bar just shown, are not laid out yet.
    layOutInPlace();
    double room = scrollRange();
    // Measured in the scroll pane's content, which holds the button above the entries too.
    double y = scroll.getContent().sceneToLocal(node.localToScene(0, 0)).getY();
    if (room > 0) scroll.setVvalue(Math.max(0, Math.min(1, y / room)));
  }

  private HBox header() {
    Label title = new Label("Steward");
    title.getStyleClass().add("app-title");
    Label dot = new Label("●");
    dot.getStyleClass().add("service-dot");
    Label service = new Label();
    service.setId("service-state");
    service.getStyleClass().add("service-state");
    model.serviceProperty().addListener((o, was, now) -> showService(now, service, dot));
    showService(model.serviceProperty().get(), service, dot);
    Node modelName = modelPicker();
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    HBox header = new HBox(8, title, spacer, modelName, dot, service);
    header.setAlignment(Pos.CENTER_LEFT);
    header.setPadding(new Insets(10, 14, 10, 14));
    header.getStyleClass().add("chat-header");
    return header;
  }

  /**
   * The model in use, and a menu of the server's models to switch to for the next message; those
   * that call tools are marked, and one that cannot is chosen only after saying what it means.
   */
  private Node modelPicker() {
    javafx.scene.control.MenuButton picker = new javafx.scene.control.MenuButton();
    picker.setId("model-picker");
    picker.getStyleClass().addAll("model-name", "flat");
    picker.setMinWidth(Region.USE_PREF_SIZE);
    picker
        .textProperty()
        .bind(javafx.beans.binding.Bindings.when(model.modelNameProperty().isEmpty())
            .then("No model")
            .otherwise(model.modelNameProperty()));
    Runnable fill = () -> fillModels(picker);
    model.offeredModels().addListener((ListChangeListener<Object>) c -> fill.run());
    model.modelsProblemProperty().addListener((o, was, now) -> fill.run());
    picker.setOnShowing(e -> {
      picker.getItems().setAll(new javafx.scene.control.MenuItem("Asking the server…"));
      picker.getItems().get(0).setDisable(true);
      model.refreshModels();
    });
    return picker;
  }

  private void fillModels(javafx.scene.control.MenuButton picker) {
    List<javafx.scene.control.MenuItem> items = new java.util.ArrayList<>();
    javafx.scene.control.ToggleGroup group = new javafx.scene.control.ToggleGroup();
    for (dev.steward.app.agent.ModelCatalog.Offered offered : model.offeredModels()) {
      javafx.scene.control.RadioMenuItem item =
          new javafx.scene.control.RadioMenuItem(offered.name()
              + switch (offered.tools()) {
                case CALLS_TOOLS -> "  ·  calls tools";
                case NO_TOOLS -> "  ·  talk only";
                case NOT_SAID -> "";
              });
      item.setId("model-" + offered.name());
      item.setToggleGroup(group);
      item.setSelected(offered.name().equals(model.modelNameProperty().get()));
      item.setOnAction(e -> choose(offered.name()));
      items.add(item);
    }
    if (items.isEmpty()) {
      String why = model.modelsProblemProperty().get();
      javafx.scene.control.MenuItem none =
          new javafx.scene.control.MenuItem(why.isEmpty() ? "The server lists no models" : why);
      none.setDisable(true);
      items.add(none);
    }
    javafx.scene.control.MenuItem settings = new javafx.scene.control.MenuItem("Model settings…");
    settings.setOnAction(e -> model.openSettings());
    items.add(new javafx.scene.control.SeparatorMenuItem());
    items.add(settings);
    picker.getItems().setAll(items);
  }

  private void choose(String name) {
    if (model.talksOnly(name)) {
      javafx.scene.control.ButtonType use = new javafx.scene.control.ButtonType(
          "Use it anyway", javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
      javafx.scene.control.Alert ask = new javafx.scene.control.Alert(
          javafx.scene.control.Alert.AlertType.CONFIRMATION,
          name + " does not call tools: with it Steward can only talk, not act — no files, no"
              + " browser, no calendar. The model in use now stays until you choose.",
          use,
          javafx.scene.control.ButtonType.CANCEL);
      ask.setHeaderText("Use a model that cannot call tools?");
      ask.setTitle("Steward");
      if (getScene() != null) ask.initOwner(getScene().getWindow());
      if (ask.showAndWait().orElse(javafx.scene.control.ButtonType.CANCEL) != use) return;
    }
    model.useModel(name);
  }

  private static void showService(ServiceState state, Label label, Label dot) {
    label.setText(state.label());
    dot.getStyleClass().removeIf(c -> c.startsWith("dot-"));
    dot.getStyleClass().add("dot-" + state.name().toLowerCase(java.util.Locale.ROOT));
  }

  private Node banner() {
    Label text = new Label();
    text.setId("banner");
    text.setWrapText(true);
    text.textProperty().bind(model.bannerProperty());
    javafx.scene.control.Button retry = new javafx.scene.control.Button("Retry");
    retry.setId("banner-retry");
    retry.setOnAction(e -> model.retryModel());
    javafx.scene.control.Button settings = new javafx.scene.control.Button("Open Settings");
    settings.setId("banner-settings");
    settings.setOnAction(e -> model.openSettings());
    javafx.scene.layout.HBox actions = new javafx.scene.layout.HBox(8, retry, settings);
    VBox box = new VBox(8, text, actions);
    box.getStyleClass().add("banner");
    box.setPadding(new Insets(10, 14, 10, 14));
    box.visibleProperty().bind(model.bannerProperty().isNotEmpty());
    box.managedProperty().bind(box.visibleProperty());
    return box;
  }

  /** Before the model's first word, so a slow model does not look like a dead window. */
  private Node thinking() {
    Label thinking = new Label("Thinking…");
    thinking.setId("thinking");
    thinking.getStyleClass().add("thinking");
    thinking.setPadding(new Insets(4, 14, 0, 14));
    thinking.visibleProperty().bind(model.thinkingProperty());
    thinking.managedProperty().bind(thinking.visibleProperty());
    return thinking;
  }

  /** The conversation as a column of reading width in the middle of a wide window. */
  private static Node centred(VBox column) {
    column.setMaxWidth(READING_WIDTH);
    javafx.scene.layout.StackPane holder = new javafx.scene.layout.StackPane(column);
    holder.setAlignment(Pos.TOP_CENTER);
    holder.getStyleClass().add("conversation");
    return holder;
  }

  private Node conversationPane() {
    conversation.setPadding(new Insets(14));
    conversation.setId("entries");
    conversation.getStyleClass().add("conversation");
    scroll.setFitToWidth(true);
    scroll.setId("conversation");
    // Follow the conversation as it grows, the way chat windows do.
    // After the scroll pane's own adjustment, which keeps the pixel offset when content grows.
    scroll.getContent().layoutBoundsProperty().addListener((o, was, now) -> {
      if (now.getHeight() != was.getHeight() && !holdingPlace)
        javafx.application.Platform.runLater(() -> scroll.setVvalue(1.0));
    });
    return scroll;
  }

  private Node inputBar() {
    TextArea input = new TextArea();
    input.setId("input");
    input.setPromptText(
        "Ask Steward… (Enter sends, Shift+Enter for a new line, /help for commands)");
    input.setWrapText(true);
    input.setPrefRowCount(2);
    input.textProperty().bindBidirectional(model.inputProperty());
    input.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
      if (e.getCode() == KeyCode.UP && input.getText().isEmpty()) {
        model.recallLastMessage();
        input.end();
        e.consume();
      } else if (e.getCode() == KeyCode.ENTER) {
        if (e.isShiftDown()) {
          input.insertText(input.getCaretPosition(), "\n");
        } else {
          model.send();
        }
        e.consume();
      }
    });
    Button send = new Button("Send");
    send.setId("send");
    send.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    send.getStyleClass().add("accent");
    send.disableProperty().bind(model.canSendProperty().not());
    send.setOnAction(e -> model.send());
    Button stop = new Button("Stop");
    stop.setId("stop");
    stop.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
    stop.disableProperty().bind(model.busyProperty().not());
    stop.setOnAction(e -> model.stop());
    HBox.setHgrow(input, Priority.ALWAYS);
    VBox buttons = new VBox(6, send, stop);
    HBox bar = new HBox(8, input, buttons);
    bar.setPadding(new Insets(10, 14, 14, 14));
    bar.getStyleClass().add("input-bar");
    return bar;
  }

  private void entriesChanged(ListChangeListener.Change<? extends ChatEntry> change) {
    while (change.next()) {
      int from = change.getFrom();
      // Another conversation (or this one restored): drawn anew from its newest.
      if (from == 0
          && change.getRemovedSize() == shownFrom + conversation.getChildren().size()
          && change.wasAdded()) {
        drawNewest();
        continue;
      }
      if (change.wasRemoved()) {
        int to = from + change.getRemovedSize();
        int drawn = Math.max(from, shownFrom);
        if (to > drawn) conversation.getChildren().remove(drawn - shownFrom, to - shownFrom);
        shownFrom -= Math.max(0, Math.min(to, shownFrom) - from);
      }
      if (change.wasAdded()) {
        if (from < shownFrom) {
          shownFrom += change.getAddedSize();
        } else {
          int at = from - shownFrom;
          for (ChatEntry e : change.getAddedSubList())
            conversation.getChildren().add(at++, viewOf(e));
        }
      }
      showEarlierButton();
    }
  }

  private Node viewOf(ChatEntry entry) {
    if (entry instanceof CallCard card)
      return new CallCardView(card, () -> model.showInAudit(card), () -> model.askAgain(card));
    MessageEntry m = (MessageEntry) entry;
    MarkdownView content = new MarkdownView();
    boolean markdown = m.kind() == MessageEntry.Kind.ASSISTANT;
    java.util.function.Consumer<String> show =
        markdown ? content::setMarkdown : content::setPlainText;
    show.accept(m.text());
    m.textProperty().addListener((o, was, now) -> show.accept(now));
    VBox bubble = new VBox(content);
    if (m.kind() == MessageEntry.Kind.ERROR) bubble.getChildren().add(retryButton(m));
    String kind = m.kind().name().toLowerCase(java.util.Locale.ROOT);
    bubble.getStyleClass().addAll("message", "message-" + kind);
    VBox column = new VBox(2, bubble, messageActions(m, content));
    HBox row = new HBox(column);
    row.getStyleClass().add("message-row");
    if (m.kind() == MessageEntry.Kind.USER) {
      row.setAlignment(Pos.CENTER_RIGHT);
      column.setAlignment(Pos.TOP_RIGHT);
      column.setMaxWidth(USER_WIDTH);
    }
    return row;
  }

  /** On the model's failure, while it is the last word: ask the model again. */
  private Node retryButton(MessageEntry m) {
    Button retry = new Button("Retry");
    retry.getStyleClass().add("message-retry");
    retry.setTooltip(
        new javafx.scene.control.Tooltip("Ask the model again (your message is kept)"));
    retry
        .visibleProperty()
        .bind(javafx.beans.binding.Bindings.createBooleanBinding(
            () -> model.retryableProperty().get() == m && !model.busyProperty().get(),
            model.retryableProperty(),
            model.busyProperty()));
    retry.managedProperty().bind(retry.visibleProperty());
    retry.setOnAction(e -> model.retry());
    VBox.setMargin(retry, new Insets(6, 0, 0, 0));
    return retry;
  }

  /** Under a message, shown while the pointer is on it: its time and a Copy button. */
  private static Node messageActions(MessageEntry m, MarkdownView content) {
    java.time.ZonedDateTime at = m.at().atZone(java.time.ZoneId.systemDefault());
    Label time = new Label(TIME.format(at));
    time.getStyleClass().add("message-time");
    time.setTooltip(new javafx.scene.control.Tooltip(WHEN.format(at)));
    Button copy = dev.steward.app.markdown.Clip.button(content::source, "message");
    copy.getStyleClass().add("message-copy");
    HBox actions = new HBox(6, time, copy);
    actions.setAlignment(Pos.CENTER_LEFT);
    actions.getStyleClass().add("message-actions");
    return actions;
  }
}
