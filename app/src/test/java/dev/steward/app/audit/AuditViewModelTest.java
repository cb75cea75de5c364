package dev.steward.app.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditViewModelTest {

  /** An in-memory log: 450 rows, newest first, filtered and paged the way the service does. */
  private static final class Log implements AuditSource {
    final List<Audit.Row> rows = new ArrayList<>();
    final List<Audit.QueryParams> asked = new ArrayList<>();
    final List<String> undone = new ArrayList<>();

    Log() {
      for (int i = 450; i >= 1; i--) {
        String tool = i % 3 == 0 ? "files.write_text" : "files.list_dir";
        String decision = i % 5 == 0 ? "blocked" : "allowed";
        rows.add(row(i, tool, decision, "=HYPERLINK(\"http://evil\"), row " + i));
      }
    }

    @Override
    public Audit.QueryResult query(Audit.QueryParams p) {
      asked.add(p);
      List<Audit.Row> match = rows.stream()
          .filter(r -> p.tool() == null || p.tool().equals(r.tool()))
          .filter(r -> p.decision() == null || p.decision().equals(r.decision()))
          .filter(
              r -> p.cursor() == null || Long.parseLong(r.auditId()) < Long.parseLong(p.cursor()))
          .toList();
      int limit = p.limit();
      List<Audit.Row> page = match.subList(0, Math.min(limit, match.size()));
      return new Audit.QueryResult(
          page, match.size() > limit ? page.get(page.size() - 1).auditId() : null);
    }

    @Override
    public Audit.VerifyResult verify() {
      return new Audit.VerifyResult(false, 450, "17", "row 17's hash does not match");
    }

    @Override
    public Audit.ArgsResult wholeArgs(String sha256) {
      throw new IllegalStateException("no row of this log was cut");
    }

    @Override
    public ToolResult undo(String auditId) {
      undone.add(auditId);
      return ToolResult.success(
          Json.object(), new AuditMeta("451", "confirmed", Instant.EPOCH, Instant.EPOCH));
    }

    @Override
    public java.util.Set<String> undoableTools() {
      return java.util.Set.of("files.write_text", "files.move", "files.delete");
    }
  }

  static Audit.Row row(int seq, String tool, String decision, String summary) {
    Instant at = Instant.parse("2026-11-26T10:00:00Z").plusSeconds(seq);
    return new Audit.Row(
        Integer.toString(seq),
        "decision",
        "t" + seq,
        "c" + seq,
        tool,
        "h" + seq,
        "{\"path\":\"a,b\"}",
        decision,
        "why",
        null,
        null,
        null,
        summary,
        at,
        at.plusMillis(5),
        "rh" + seq);
  }

  private final Log log = new Log();
  private final AuditViewModel vm = new AuditViewModel(
      Runnable::run,
      Runnable::run,
      Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC));

  @Test
  void showsTheNewestPageThenMoreOnDemand() {
    vm.attach(log);
    assertEquals(AuditViewModel.PAGE, vm.rows().size());
    assertEquals("450", vm.rows().get(0).auditId());
    assertTrue(vm.hasMoreProperty().get());
    vm.loadMore();
    vm.loadMore();
    assertEquals(450, vm.rows().size());
    assertFalse(vm.hasMoreProperty().get());
  }

  @Test
  void rowsThatComeWhileTheUserReadsOlderPagesGoOnTopAndThePagesStay() {
    vm.attach(log);
    vm.loadMore();
    assertEquals(2 * AuditViewModel.PAGE, vm.rows().size());
    for (int i = 451; i <= 453; i++) log.rows.add(0, row(i, "files.list_dir", "allowed", "new"));
    vm.callFinished();
    assertEquals(2 * AuditViewModel.PAGE + 3, vm.rows().size());
    assertEquals("453", vm.rows().get(0).auditId());
    assertEquals("51", vm.rows().get(vm.rows().size() - 1).auditId(), "the loaded pages stay");
    for (int i = 454; i <= 454 + AuditViewModel.PAGE; i++)
      log.rows.add(0, row(i, "files.list_dir", "allowed", "new"));
    vm.callFinished();
    assertEquals(2 * AuditViewModel.PAGE + 3, vm.rows().size(), "no gap in the list");
    assertTrue(
        vm.statusProperty().get().contains("Refresh"), vm.statusProperty().get());
  }

  @Test
  void filtersGoToTheQueryAndReplaceTheRows() {
    vm.attach(log);
    vm.toolProperty().set("files.write_text");
    vm.decisionProperty().set("blocked");
    vm.rangeProperty().set(AuditViewModel.Range.LAST_HOUR);
    vm.refresh();
    Audit.QueryParams p = log.asked.get(log.asked.size() - 1);
    assertEquals("files.write_text", p.tool());
    assertEquals("blocked", p.decision());
    assertEquals(Instant.parse("2026-11-26T11:00:00Z"), p.since());
    assertNull(p.text(), "blank filters do not filter");
    assertEquals(30, vm.rows().size()); // every 15th row
    assertTrue(vm.rows().stream()
        .allMatch(r -> r.tool().equals("files.write_text") && r.decision().equals("blocked")));
  }

  @Test
  void aBrokenChainNamesItsRow() {
    vm.attach(log);
    assertTrue(vm.chainBrokenProperty().get());
    assertEquals(
        "Chain broken at row 17: row 17's hash does not match",
        vm.chainProperty().get());
  }

  @Test
  void undoIsOfferedForFileChangesThatRanAndRefreshesAfterwards() {
    vm.attach(log);
    vm.selectedProperty().set(row(3, "files.write_text", "allowed", "s"));
    assertTrue(vm.canUndoProperty().get());
    assertTrue(vm.detailsProperty().get().contains("Tool: files.write_text"));
    int queries = log.asked.size();
    vm.undo();
    assertEquals(List.of("3"), log.undone);
    assertTrue(vm.statusProperty().get().startsWith("Undone"));
    assertTrue(log.asked.size() > queries, "the undo row shows up");
    vm.selectedProperty().set(row(4, "files.list_dir", "allowed", "s"));
    assertFalse(vm.canUndoProperty().get(), "nothing to undo for a listing");
    vm.selectedProperty().set(row(5, "files.write_text", "blocked", "s"));
    assertFalse(vm.canUndoProperty().get(), "a blocked call changed nothing");
  }

  @Test
  void undoWorksFromTheRowThatChangedTheFileAndAnUndoneCallIsMarked() {
    Instant at = Instant.parse("2026-11-26T10:00:00Z");
    Audit.Row decision = row(10, "files.write_text", "confirmed", "s");
    Audit.Row completion = new Audit.Row(
        "11",
        "completion",
        "t10",
        "c10",
        "files.write_text",
        "h10",
        "{}",
        "confirmed",
        "why",
        null,
        "ok",
        null,
        "wrote 3 bytes",
        at,
        at.plusMillis(5),
        "rh11");
    Audit.Row failed = new Audit.Row(
        "13",
        "completion",
        "t12",
        "c12",
        "files.write_text",
        "h12",
        "{}",
        "confirmed",
        "why",
        null,
        "error",
        "IO_ERROR",
        "no",
        at,
        at.plusMillis(5),
        "rh13");
    log.rows.add(0, decision);
    log.rows.add(0, completion);
    log.rows.add(0, failed);
    vm.attach(log);
    java.util.Set<String> tools = log.undoableTools();
    assertEquals("10", AuditViewModel.undoTarget(completion, vm.rows(), tools));
    assertEquals(null, AuditViewModel.undoTarget(failed, vm.rows(), tools), "it changed nothing");
    vm.selectedProperty().set(completion);
    assertTrue(vm.canUndoProperty().get());
    vm.undo();
    assertEquals(List.of("10"), log.undone, "the undo goes to the call's decision row");

    Audit.Row undoRow = new Audit.Row(
        "14",
        "completion",
        "undo-10",
        "u1",
        "tool.undo",
        "h14",
        "{}",
        "confirmed",
        "why",
        null,
        "ok",
        null,
        "restored",
        at,
        at.plusMillis(5),
        "rh14");
    java.util.List<Audit.Row> shown = List.of(undoRow, completion, decision);
    assertTrue(AuditViewModel.isUndone(decision, shown));
    assertTrue(AuditViewModel.isUndone(completion, shown), "both rows of the call are marked");
    assertEquals(null, AuditViewModel.undoTarget(completion, shown, tools), "not twice");
    assertTrue(AuditViewModel.describe(completion, shown).contains("Undone: yes"));
    assertFalse(AuditViewModel.isUndone(failed, shown));
  }

  @Test
  void detailsGiveLocalTimesWithTheirZone() {
    java.util.TimeZone was = java.util.TimeZone.getDefault();
    String text = AuditViewModel.describe(row(1, "files.write_text", "allowed", "s"));
    // The table shows local MM-dd HH:mm:ss; the details the same clock with the date and zone.
    String local = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
        .withZone(java.time.ZoneId.systemDefault())
        .format(Instant.parse("2026-11-26T10:00:01Z"));
    assertTrue(text.contains("Started: " + local), text);
    assertFalse(text.contains("T10:00:01Z"), "no UTC instant in the details: " + text);
    assertEquals(was, java.util.TimeZone.getDefault());
  }

  @Test
  void exportWritesEveryMatchingRowWithFormulasDefused(@TempDir Path dir) throws Exception {
    vm.attach(log);
    vm.decisionProperty().set("blocked");
    Path csv = dir.resolve("rows.csv");
    assertEquals(90, vm.export(csv));
    List<String> lines = Files.readAllLines(csv);
    assertEquals(91, lines.size());
    assertTrue(
        lines.get(1).contains("\"'=HYPERLINK(\"\"http://evil\"\"), row 450\""), lines.get(1));
    assertTrue(lines.get(1).contains("\"{\"\"path\"\":\"\"a,b\"\"}\""), lines.get(1));
    Path json = dir.resolve("rows.json");
    assertEquals(90, vm.export(json));
    assertEquals(
        "450", Json.parse(Files.readString(json)).get(0).get("audit_id").asText());
  }
}
