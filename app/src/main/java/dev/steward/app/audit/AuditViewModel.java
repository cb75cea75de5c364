package dev.steward.app.audit;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.audit.WholeArgs;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.protocol.util.Counted;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * The audit panel's state: a page of rows at a time (newest first) under the filters, more on
 * demand, the chain's status, the selected row's details, Undo for calls that can be undone, and
 * export of everything the filters match. Queries run in the background; changes land on the UI
 * executor.
 */
public final class AuditViewModel {

  /** The time-range filter's choices. */
  public enum Range {
    ANY("any time"),
    LAST_HOUR("last hour"),
    TODAY("today"),
    LAST_7_DAYS("last 7 days");

    private final String label;

    Range(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  static final int PAGE = 200;

  private final Executor background;
  private final Executor ui;
  private final Clock clock;
  private final ObservableList<Audit.Row> rows = FXCollections.observableArrayList();
  private final StringProperty tool = new SimpleStringProperty("");
  private final StringProperty decision = new SimpleStringProperty("");
  private final StringProperty result = new SimpleStringProperty("");
  private final StringProperty text = new SimpleStringProperty("");
  private final ObjectProperty<Range> range = new SimpleObjectProperty<>(Range.ANY);
  private final ObjectProperty<Audit.@Nullable Row> selected = new SimpleObjectProperty<>();
  private final ReadOnlyStringWrapper details = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper chain = new ReadOnlyStringWrapper("Chain not checked yet");
  private final ReadOnlyBooleanWrapper chainBroken = new ReadOnlyBooleanWrapper(false);
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyBooleanWrapper hasMore = new ReadOnlyBooleanWrapper(false);
  private final ObjectProperty<Set<String>> undoableTools = new SimpleObjectProperty<>(Set.of());
  private final BooleanBinding canUndo;
  private final AtomicBoolean refreshQueued = new AtomicBoolean();
  private volatile @Nullable AuditSource source;
  private @Nullable String cursor;
  private long generation;

  public AuditViewModel(Executor background, Executor ui, Clock clock) {
    this.background = background;
    this.ui = ui;
    this.clock = clock;
    this.canUndo = Bindings.createBooleanBinding(
        () -> undoTarget(selected.get(), rows, undoableTools.get()) != null,
        selected,
        undoableTools,
        rows);
    selected.addListener((o, was, now) -> {
      showDetails();
      if (now != null) readWhole(now);
    });
    rows.addListener((javafx.collections.ListChangeListener<Audit.Row>) c -> showDetails());
  }

  /**
   * The whole arguments of rows whose preview was cut, by hash, as read back; the last few, on the
   * FX thread. Why one could not be read is shown and not kept: it is asked again.
   */
  private final java.util.Map<String, String> wholes =
      new java.util.LinkedHashMap<String, String>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, String> eldest) {
          return size() > 16;
        }
      };

  private final java.util.Map<String, String> unread = new java.util.HashMap<>();

  /** The most of a whole the details show (a pane of one long line is slow to lay out). */
  static final int MAX_WHOLE_SHOWN = 64 * 1024;

  private void showDetails() {
    Audit.Row now = selected.get();
    if (now == null) {
      details.set("");
      return;
    }
    String hash = WholeArgs.named(now.kind(), now.argsPreview());
    String whole = hash == null ? null : wholes.get(hash);
    if (hash != null && whole == null) whole = unread.getOrDefault(hash, READING);
    details.set(describe(now, rows, whole));
  }

  private static final String READING = "Whole arguments: reading…";

  /** Reads back the whole arguments a selected row's cut preview names, once per hash. */
  private void readWhole(Audit.Row row) {
    String hash = WholeArgs.named(row.kind(), row.argsPreview());
    AuditSource s = source;
    if (hash == null || s == null || wholes.containsKey(hash)) return;
    unread.remove(hash);
    background.execute(() -> {
      try {
        String whole = s.wholeArgs(hash).args();
        String laidOut = pretty(whole);
        String shown = "Whole arguments (" + whole.length()
            + " characters, checked against this row's hash): "
            + (laidOut.length() <= MAX_WHOLE_SHOWN
                ? laidOut
                : laidOut.substring(0, shownUpTo(laidOut)) + "\n… (the first " + MAX_WHOLE_SHOWN
                    + " of " + laidOut.length() + " characters shown)");
        ui.execute(() -> {
          wholes.put(hash, shown);
          showDetails();
        });
      } catch (RuntimeException e) {
        String why = "Whole arguments: cannot be read: " + e.getMessage();
        ui.execute(() -> {
          unread.put(hash, why);
          showDetails();
        });
      }
    });
  }

  /** Where a long whole is cut for the pane: a pair of surrogates is never split. */
  private static int shownUpTo(String text) {
    return Character.isHighSurrogate(text.charAt(MAX_WHOLE_SHOWN - 1))
        ? MAX_WHOLE_SHOWN - 1
        : MAX_WHOLE_SHOWN;
  }

  /** Arguments one per line, as JSON laid out; as they came if they are not JSON. */
  private static String pretty(String json) {
    try {
      return dev.steward.protocol.json.Json.mapper()
          .writerWithDefaultPrettyPrinter()
          .writeValueAsString(dev.steward.protocol.json.Json.parse(json));
    } catch (RuntimeException | java.io.IOException e) {
      return json;
    }
  }

  /** Connects the panel to the log: checks the chain and shows the newest rows. */
  public void attach(AuditSource auditSource) {
    this.source = auditSource;
    background.execute(() -> {
      try {
        Set<String> names = auditSource.undoableTools();
        ui.execute(() -> undoableTools.set(names));
      } catch (RuntimeException e) {
        reportStatus("Cannot tell which calls can be undone: " + e.getMessage());
      }
    });
    verify();
    refresh();
  }

  public AuditFilter filter() {
    Instant now = clock.instant();
    Instant since = switch (range.get()) {
      case ANY -> null;
      case LAST_HOUR -> now.minus(Duration.ofHours(1));
      case TODAY ->
        LocalDate.now(clock.withZone(ZoneId.systemDefault()))
            .atStartOfDay(ZoneId.systemDefault())
            .toInstant();
      case LAST_7_DAYS -> now.minus(Duration.ofDays(7));
    };
    return new AuditFilter(tool.get(), decision.get(), result.get(), text.get(), since, null);
  }

  /** Shows every row holding {@code text} (a call's or a conversation's id), other filters cleared. */
  public void showMatching(String text) {
    tool.set("");
    decision.set("");
    result.set("");
    range.set(Range.ANY);
    this.text.set(text);
    refresh();
  }

  /** Shows the first page under the current filters. */
  public void refresh() {
    AuditSource s = source;
    if (s == null) return;
    AuditFilter f = filter();
    long mine = ++generation;
    background.execute(() -> {
      refreshQueued.set(false);
      try {
        Audit.QueryResult page = s.query(f.params(PAGE, null));
        ui.execute(() -> {
          if (mine != generation) return; // a newer filter won
          if (status.get().startsWith("More than ")) status.set("");
          rows.setAll(page.rows());
          cursor = page.nextCursor();
          hasMore.set(cursor != null);
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set("Could not read the audit log: " + e.getMessage()));
      }
    });
  }

  /** Appends the next page. */
  public void loadMore() {
    AuditSource s = source;
    String from = cursor;
    if (s == null || from == null) return;
    AuditFilter f = filter();
    long mine = generation;
    background.execute(() -> {
      try {
        Audit.QueryResult page = s.query(f.params(PAGE, from));
        ui.execute(() -> {
          if (mine != generation || !from.equals(cursor)) return;
          rows.addAll(page.rows());
          cursor = page.nextCursor();
          hasMore.set(cursor != null);
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set("Could not read the audit log: " + e.getMessage()));
      }
    });
  }

  /**
   * A call finished somewhere: show it (one look however many arrive at once). The rows it adds
   * come on top of what is shown; pages the user loaded stay, so that a stream of calls (a model's,
   * one every moment) cannot keep older rows out of reach.
   */
  public void callFinished() {
    if (refreshQueued.compareAndSet(false, true)) ui.execute(this::newest);
  }

  private void newest() {
    AuditSource s = source;
    if (s == null) return;
    if (rows.size() <= PAGE) {
      refresh();
      return;
    }
    AuditFilter f = filter();
    long mine = generation;
    background.execute(() -> {
      refreshQueued.set(false);
      try {
        Audit.QueryResult page = s.query(f.params(PAGE, null));
        ui.execute(() -> {
          if (mine != generation || rows.isEmpty()) return;
          long top = seq(rows.get(0));
          List<Audit.Row> newer = page.rows().stream().filter(r -> seq(r) > top).toList();
          if (newer.size() == page.rows().size() && page.nextCursor() != null) {
            // More came than a page holds: the rows between would be missing from the list.
            status.set("More than " + PAGE + " new rows: Refresh to see the newest.");
            return;
          }
          rows.addAll(0, newer);
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set("Could not read the audit log: " + e.getMessage()));
      }
    });
  }

  private static long seq(Audit.Row row) {
    try {
      return Long.parseLong(row.auditId());
    } catch (NumberFormatException e) {
      return Long.MIN_VALUE;
    }
  }

  /** Checks the hash chain of the whole log. */
  public void verify() {
    AuditSource s = source;
    if (s == null) return;
    ui.execute(() -> chain.set("Checking the chain…"));
    background.execute(() -> {
      try {
        Audit.VerifyResult v = s.verify();
        ui.execute(() -> {
          chainBroken.set(!v.ok());
          chain.set(
              v.ok()
                  ? "Chain verified: " + Counted.of(v.rowsChecked(), "row", "rows")
                  : "Chain broken at row " + v.firstBadRow()
                      + (v.problem() == null ? "" : ": " + v.problem()));
        });
      } catch (RuntimeException e) {
        ui.execute(() -> chain.set("Could not check the chain: " + e.getMessage()));
      }
    });
  }

  /**
   * Undoes the selected call — from its decision row or from the row of its completion, the one
   * that changed the file (the service refuses when the file changed since); then the rows and the
   * chain's status are read again.
   */
  public void undo() {
    AuditSource s = source;
    Audit.Row row = selected.get();
    String target = undoTarget(row, rows, undoableTools.get());
    if (s == null || row == null || target == null) return;
    background.execute(() -> {
      try {
        ToolResult r = s.undo(target);
        ui.execute(() -> {
          status.set(
              r.ok()
                  ? "Undone: " + row.tool() + " (row " + target + ")"
                  : "Undo refused: "
                      + (r.error() == null ? "no reason given" : r.error().message()));
          refresh();
          verify();
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set("Undo failed: " + e.getMessage()));
      }
    });
  }

  /** Every row the filters match, all pages. Runs on the caller's thread. */
  public List<Audit.Row> allMatching() {
    AuditSource s = source;
    if (s == null) return List.of();
    AuditFilter f = filter();
    List<Audit.Row> all = new ArrayList<>();
    String next = null;
    do {
      Audit.QueryResult page = s.query(f.params(1000, next));
      all.addAll(page.rows());
      next = page.nextCursor();
    } while (next != null);
    return all;
  }

  /** Writes the matching rows as CSV or JSON (by the file's extension); answers how many. */
  public int export(Path file) throws IOException {
    List<Audit.Row> all = allMatching();
    java.util.Map<String, String> read = new java.util.HashMap<>();
    java.util.function.Function<Audit.Row, @Nullable String> whole = r -> {
      String hash = WholeArgs.named(r.kind(), r.argsPreview());
      return hash == null ? null : read.computeIfAbsent(hash, this::readForExport);
    };
    if (file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json")) {
      AuditExport.json(all, whole, file);
    } else {
      AuditExport.csv(all, whole, file);
    }
    return all.size();
  }

  /** A whole for the export: as read back, or why it could not be (the export goes on). */
  private String readForExport(String hash) {
    AuditSource s = source;
    if (s == null) return "(cannot be read: not connected)";
    try {
      return s.wholeArgs(hash).args();
    } catch (RuntimeException e) {
      return "(cannot be read: " + e.getMessage() + ")";
    }
  }

  /** A line in the panel's status (export results, problems). */
  public void reportStatus(String text) {
    ui.execute(() -> status.set(text));
  }

  static boolean undoable(Audit.@Nullable Row row, Set<String> undoableTools) {
    return row != null
        && AuditKind.DECISION.wire().equals(row.kind())
        && undoableTools.contains(row.tool())
        && (Decision.ALLOWED.wire().equals(row.decision())
            || Decision.CONFIRMED.wire().equals(row.decision()));
  }

  /**
   * The row whose call an Undo of {@code row} puts back (the call's decision row, which the
   * service keeps the undo data under), or null when there is nothing to undo: a call of a tool
   * that keeps nothing, one that did not run or failed, one already undone. A completion row finds
   * its decision among the rows shown (the same trace and call).
   */
  static @Nullable String undoTarget(
      Audit.@Nullable Row row, List<Audit.Row> shown, Set<String> undoableTools) {
    if (row == null || !undoableTools.contains(row.tool())) return null;
    String target = null;
    if (undoable(row, undoableTools)) {
      target = row.auditId();
    } else if (AuditKind.COMPLETION.wire().equals(row.kind())
        && Outcome.OK.wire().equals(row.result())) {
      for (Audit.Row r : shown) {
        if (undoable(r, undoableTools)
            && java.util.Objects.equals(r.traceId(), row.traceId())
            && java.util.Objects.equals(r.callId(), row.callId())) {
          target = r.auditId();
          break;
        }
      }
    }
    return target == null || undoneIds(shown).contains(target) ? null : target;
  }

  /** The decision rows of calls an undo shown among {@code shown} put back. */
  static Set<String> undoneIds(List<Audit.Row> shown) {
    Set<String> ids = new java.util.HashSet<>();
    for (Audit.Row r : shown) {
      String trace = r.traceId();
      if (UNDO_TOOL.equals(r.tool())
          && Outcome.OK.wire().equals(r.result())
          && trace != null
          && trace.startsWith(UNDO_TRACE)) ids.add(trace.substring(UNDO_TRACE.length()));
    }
    return ids;
  }

  /** Whether {@code row} belongs to a call that was undone (its decision or its completion). */
  static boolean isUndone(Audit.Row row, List<Audit.Row> shown) {
    Set<String> undone = undoneIds(shown);
    if (undone.isEmpty()) return false;
    if (undone.contains(row.auditId())) return true;
    for (Audit.Row r : shown) {
      if (undone.contains(r.auditId())
          && java.util.Objects.equals(r.traceId(), row.traceId())
          && java.util.Objects.equals(r.callId(), row.callId())) return true;
    }
    return false;
  }

  /** The service's name for undo calls in the log, and the trace it gives each: undo-<row>. */
  private static final String UNDO_TOOL = "tool.undo";

  private static final String UNDO_TRACE = "undo-";

  /** Times as the table shows them, with the date and the zone: the user's own clock. */
  private static final java.time.format.DateTimeFormatter LOCAL =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS (z)")
          .withZone(ZoneId.systemDefault());

  static String describe(Audit.Row r) {
    return describe(r, List.of());
  }

  static String describe(Audit.Row r, List<Audit.Row> shown) {
    return describe(r, shown, null);
  }

  /** {@code whole}: the line on the whole arguments of a row whose preview was cut. */
  static String describe(Audit.Row r, List<Audit.Row> shown, @Nullable String whole) {
    StringBuilder s = new StringBuilder();
    line(s, "Row", r.auditId() + " (" + r.kind() + ")");
    if (isUndone(r, shown)) line(s, "Undone", "yes: what this call changed was put back");
    line(s, "Tool", r.tool());
    line(s, "Decision", r.decision());
    line(s, "Reason", r.reason());
    line(
        s,
        "Result",
        r.result() == null
            ? null
            : r.result() + (r.errorCode() == null ? "" : " " + r.errorCode()));
    line(s, "Summary", r.summary());
    line(s, "Arguments", r.argsPreview());
    if (whole != null) s.append(whole).append('\n');
    line(s, "Argument hash", r.argsHash());
    line(s, "Token", r.tokenId());
    line(s, "Started", LOCAL.format(r.startedAt()));
    line(
        s,
        "Ended",
        r.endedAt() == null
            ? null
            : LOCAL.format(r.endedAt()) + " ("
                + Duration.between(r.startedAt(), r.endedAt()).toMillis() + " ms)");
    line(s, "Trace", r.traceId());
    line(s, "Call", r.callId());
    line(s, "Row hash", r.rowHash());
    // What a row quotes cannot reorder or hide part of the pane's lines.
    return dev.steward.protocol.util.ShownText.escapedKeepingLines(s.toString());
  }

  private static void line(StringBuilder s, String label, @Nullable String value) {
    if (value != null && !value.isEmpty())
      s.append(label).append(": ").append(value).append('\n');
  }

  public static String duration(Audit.Row r) {
    return r.endedAt() == null
        ? ""
        : Duration.between(r.startedAt(), r.endedAt()).toMillis() + " ms";
  }

  public ObservableList<Audit.Row> rows() {
    return rows;
  }

  public StringProperty toolProperty() {
    return tool;
  }

  public StringProperty decisionProperty() {
    return decision;
  }

  public StringProperty resultProperty() {
    return result;
  }

  public StringProperty textProperty() {
    return text;
  }

  public ObjectProperty<Range> rangeProperty() {
    return range;
  }

  public ObjectProperty<Audit.@Nullable Row> selectedProperty() {
    return selected;
  }

  public ReadOnlyStringProperty detailsProperty() {
    return details.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty chainProperty() {
    return chain.getReadOnlyProperty();
  }

  public ReadOnlyBooleanProperty chainBrokenProperty() {
    return chainBroken.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyBooleanProperty hasMoreProperty() {
    return hasMore.getReadOnlyProperty();
  }

  public BooleanBinding canUndoProperty() {
    return canUndo;
  }
}
