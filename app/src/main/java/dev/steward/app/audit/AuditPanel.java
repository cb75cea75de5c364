package dev.steward.app.audit;

import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.util.Counted;
import dev.steward.protocol.util.DaemonThreads;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.BiFunction;
import javafx.animation.PauseTransition;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import javafx.util.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The audit panel: filters on top, the calls in a virtualised table with the selected row's
 * details beside it, and the chain status, Undo and export below.
 */
public final class AuditPanel extends BorderPane {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private final AuditViewModel model;
  private final BiFunction<String, String, @Nullable Path> chooseExportFile;

  /**
   * @param chooseExportFile (title, suggested name) → where to export, or null when cancelled
   */
  public AuditPanel(
      AuditViewModel model, BiFunction<String, String, @Nullable Path> chooseExportFile) {
    this.model = model;
    this.chooseExportFile = chooseExportFile;
    getStyleClass().add("audit-panel");
    setTop(filters());
    setCenter(tableAndDetails());
    setBottom(actions());
  }

  /** A save dialog owned by {@code owner}. */
  public static BiFunction<String, String, @Nullable Path> fileChooser(
      java.util.function.Supplier<@Nullable Window> owner) {
    return (title, name) -> {
      FileChooser chooser = new FileChooser();
      chooser.setTitle(title);
      chooser.setInitialFileName(name);
      chooser.setInitialDirectory(exportFolder().toFile());
      java.io.File f = chooser.showSaveDialog(owner.get());
      return f == null ? null : f.toPath();
    };
  }

  /** Where an export is offered first: the user's Documents folder, else the home folder. */
  static Path exportFolder() {
    Path home = Path.of(System.getProperty("user.home"));
    Path documents = home.resolve("Documents");
    return java.nio.file.Files.isDirectory(documents) ? documents : home;
  }

  /** A filter with its name above it. */
  private static javafx.scene.layout.VBox labelled(String name, javafx.scene.Node control) {
    Label label = new Label(name);
    label.getStyleClass().add("filter-label");
    label.setLabelFor(control);
    label.setMinWidth(Region.USE_PREF_SIZE);
    return new javafx.scene.layout.VBox(2, label, control);
  }

  private HBox filters() {
    TextField tool = new TextField();
    tool.setId("audit-tool");
    tool.setPromptText("any tool");
    tool.setPrefColumnCount(11);
    tool.textProperty().bindBidirectional(model.toolProperty());
    ComboBox<String> decision = new ComboBox<>();
    decision.setId("audit-decision");
    decision.setPromptText("any decision");
    decision.getItems().add("");
    for (Decision d : Decision.values()) decision.getItems().add(d.wire());
    decision.valueProperty().bindBidirectional(model.decisionProperty());
    decision.setMinWidth(Region.USE_PREF_SIZE);
    ComboBox<String> result = new ComboBox<>();
    result.setId("audit-result");
    result.setPromptText("any result");
    result.getItems().add("");
    for (Outcome o : Outcome.values()) result.getItems().add(o.wire());
    result.valueProperty().bindBidirectional(model.resultProperty());
    result.setMinWidth(Region.USE_PREF_SIZE);
    ChoiceBox<AuditViewModel.Range> range = new ChoiceBox<>();
    range.setId("audit-range");
    range.getItems().addAll(AuditViewModel.Range.values());
    range.valueProperty().bindBidirectional(model.rangeProperty());
    range.setMinWidth(Region.USE_PREF_SIZE);
    TextField text = new TextField();
    text.setId("audit-text");
    text.setPromptText("Search arguments, summaries, reasons…");
    text.setMinWidth(160);
    text.textProperty().bindBidirectional(model.textProperty());
    HBox.setHgrow(text, Priority.ALWAYS);
    // Typing refreshes once the user pauses; choices refresh at once.
    PauseTransition typing = new PauseTransition(Duration.millis(250));
    typing.setOnFinished(e -> model.refresh());
    model.toolProperty().addListener((o, a, b) -> typing.playFromStart());
    model.textProperty().addListener((o, a, b) -> typing.playFromStart());
    model.decisionProperty().addListener((o, a, b) -> model.refresh());
    model.resultProperty().addListener((o, a, b) -> model.refresh());
    model.rangeProperty().addListener((o, a, b) -> model.refresh());
    javafx.scene.layout.VBox search = labelled("Search", text);
    HBox.setHgrow(search, Priority.ALWAYS);
    HBox bar = new HBox(
        8,
        labelled("Tool", tool),
        labelled("Decision", decision),
        labelled("Result", result),
        labelled("When", range),
        search);
    bar.setAlignment(Pos.BOTTOM_LEFT);
    bar.setPadding(new Insets(10, 14, 10, 14));
    return bar;
  }

  private SplitPane tableAndDetails() {
    TableView<Audit.Row> table = new TableView<>(model.rows());
    table.setId("audit-table");
    table.getColumns().add(column("Time", 125, r -> TIME.format(r.startedAt())));
    table.getColumns().add(column("Tool", 125, r -> r.tool() == null ? "" : r.tool()));
    table.getColumns().add(column("Decision", 80, r -> r.decision() == null ? "" : r.decision()));
    table
        .getColumns()
        .add(column(
            "Result",
            60,
            r -> r.result() == null ? "" : r.errorCode() == null ? r.result() : r.errorCode()));
    table.getColumns().add(column("Time taken", 70, AuditViewModel::duration));
    table
        .getColumns()
        .add(column(
            "Summary",
            220,
            r -> r.summary() != null ? r.summary() : r.reason() == null ? "" : r.reason()));
    table.setPlaceholder(new Label("No calls match."));
    table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    model.rows().addListener((javafx.collections.ListChangeListener<Audit.Row>)
        c -> javafx.application.Platform.runLater(() -> fitColumns(table)));
    table.setRowFactory(t -> {
      TableRow<Audit.Row> row = new TableRow<>();
      Runnable mark = () -> {
        Audit.Row now = row.getItem();
        row.getStyleClass().removeAll("audit-undone");
        if (now != null && AuditViewModel.isUndone(now, model.rows()))
          row.getStyleClass().add("audit-undone");
      };
      // Marked again when an undo row arrives; weakly, so a row the table drops is not kept.
      javafx.collections.ListChangeListener<Audit.Row> onRows = c -> mark.run();
      row.getProperties().put("undone-listener", onRows);
      model.rows().addListener(new javafx.collections.WeakListChangeListener<>(onRows));
      row.itemProperty().addListener((o, was, now) -> {
        mark.run();
        row.getStyleClass().removeAll("audit-blocked", "audit-error");
        if (now != null
            && (Decision.BLOCKED.wire().equals(now.decision())
                || Decision.DENIED.wire().equals(now.decision()))) {
          row.getStyleClass().add("audit-blocked");
        }
        if (now != null && Outcome.ERROR.wire().equals(now.result()))
          row.getStyleClass().add("audit-error");
      });
      return row;
    });
    model.selectedProperty().bind(table.getSelectionModel().selectedItemProperty());
    TextArea details = new TextArea();
    details.setId("audit-details");
    details.setEditable(false);
    details.setWrapText(true);
    details.textProperty().bind(model.detailsProperty());
    // The details go under the table, so the table keeps the window's width for its columns.
    SplitPane split = new SplitPane(table, details);
    split.setOrientation(javafx.geometry.Orientation.VERTICAL);
    split.setDividerPositions(0.7);
    return split;
  }

  /** The widest a column grows to fit its text; longer text is cut, whole in the tooltip. */
  private static final double COLUMN_MAX = 320;

  /** Rows measured to size the columns: the newest, enough to be representative. */
  private static final int MEASURED_ROWS = 200;

  /**
   * Sizes every column but the last (which takes the rest) to its widest text among the rows
   * shown, between its heading's width and {@link #COLUMN_MAX}.
   */
  private static void fitColumns(TableView<Audit.Row> table) {
    javafx.scene.Node header = table.lookup(".column-header .label");
    javafx.scene.text.Font font =
        header instanceof Labeled l ? l.getFont() : javafx.scene.text.Font.getDefault();
    javafx.scene.text.Text measure = new javafx.scene.text.Text();
    measure.setFont(font);
    List<Audit.Row> rows =
        table.getItems().subList(0, Math.min(MEASURED_ROWS, table.getItems().size()));
    List<TableColumn<Audit.Row, ?>> columns = table.getColumns();
    for (int i = 0; i < columns.size() - 1; i++) {
      TableColumn<Audit.Row, ?> c = columns.get(i);
      // A column the user has sized stays as they left it.
      if (c.getProperties().get(FITTED) instanceof Double fitted
          && Math.abs(fitted - c.getWidth()) > 1) continue;
      if (!(c.getProperties().get(VALUE) instanceof java.util.function.Function<?, ?> f)) continue;
      @SuppressWarnings("unchecked")
      java.util.function.Function<Audit.Row, String> value =
          (java.util.function.Function<Audit.Row, String>) f;
      measure.setText(c.getText());
      double heading = measure.getLayoutBounds().getWidth() + 28; // and its sort arrow's room
      double widest = 0;
      for (Audit.Row r : rows) {
        measure.setText(value.apply(r));
        widest = Math.max(widest, measure.getLayoutBounds().getWidth());
      }
      double width = Math.max(
          Math.max(c.getMinWidth(), Math.ceil(heading)),
          Math.min(COLUMN_MAX, Math.ceil(widest) + 24));
      c.setPrefWidth(width);
      c.getProperties().put(FITTED, width);
    }
  }

  private static final String VALUE = "steward.value";
  private static final String FITTED = "steward.fitted";

  private static TableColumn<Audit.Row, String> column(
      String title, double width, java.util.function.Function<Audit.Row, String> value) {
    TableColumn<Audit.Row, String> c = new TableColumn<>(title);
    // What a row quotes (a path, a summary) cannot reorder or hide part of itself when shown.
    java.util.function.Function<Audit.Row, String> shown =
        value.andThen(dev.steward.protocol.util.ShownText::escaped);
    c.getProperties().put(VALUE, shown);
    c.setPrefWidth(width);
    // Never narrower than its heading; a cell's whole text is in its tooltip.
    javafx.scene.text.Text heading = new javafx.scene.text.Text(title);
    c.setMinWidth(Math.ceil(heading.getLayoutBounds().getWidth()) + 28);
    c.setCellFactory(col -> new javafx.scene.control.TableCell<>() {
      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty || item == null ? null : item);
        setTooltip(
            empty || item == null || item.isEmpty()
                ? null
                : new javafx.scene.control.Tooltip(item));
      }
    });
    c.setSortable(false); // the log's order is its meaning
    c.setCellValueFactory(cell -> new ReadOnlyStringWrapper(shown.apply(cell.getValue())));
    return c;
  }

  private HBox actions() {
    Label chain = new Label();
    chain.setId("audit-chain");
    chain.textProperty().bind(model.chainProperty());
    model
        .chainBrokenProperty()
        .addListener((o, was, now) ->
            chain.getStyleClass().setAll(now ? "audit-chain-broken" : "audit-chain"));
    Button verify = new Button("Verify");
    verify.setId("audit-verify");
    verify.setOnAction(e -> model.verify());
    Label status = new Label();
    status.setId("audit-status");
    status.textProperty().bind(model.statusProperty());
    Region spacer = new Region();
    HBox.setHgrow(spacer, Priority.ALWAYS);
    Button more = new Button("Load more");
    more.setId("audit-more");
    more.disableProperty().bind(model.hasMoreProperty().not());
    more.setOnAction(e -> model.loadMore());
    Button undo = new Button("Undo");
    undo.setId("audit-undo");
    undo.disableProperty().bind(model.canUndoProperty().not());
    undo.setOnAction(e -> model.undo());
    Button csv = new Button("Export CSV");
    csv.setId("audit-export-csv");
    csv.setOnAction(e -> export("steward-audit.csv"));
    Button json = new Button("Export JSON");
    json.setId("audit-export-json");
    json.setOnAction(e -> export("steward-audit.json"));
    HBox bar = new HBox(8, chain, verify, status, spacer, more, undo, csv, json);
    bar.setAlignment(Pos.CENTER_LEFT);
    bar.setPadding(new Insets(10, 14, 10, 14));
    return bar;
  }

  private void export(String suggested) {
    Path file = chooseExportFile.apply("Export the audit rows", suggested);
    if (file == null) return;
    DaemonThreads.start("steward-export", () -> {
      try {
        int n = model.export(file);
        javafx.application.Platform.runLater(
            () -> model.reportStatus("Exported " + Counted.of(n, "row", "rows") + " to " + file));
      } catch (Exception ex) {
        javafx.application.Platform.runLater(
            () -> model.reportStatus("Export failed: " + ex.getMessage()));
      }
    });
  }
}
