package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.method.Audit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Text filters answered through the text index give exactly the rows a scan of every row gives. */
class TextIndexTest {

  private static final String[] WORDS = {
    "Quarterly", "notes", "ZANZIBAR", "café", "straße", "a_b%c", "line\nbreak", "\u001b[31mred"
  };

  @TempDir
  Path data;

  private static AuditEntry entry(int i) {
    String word = WORDS[i % WORDS.length];
    String preview = "{\"path\":\"~/Steward/" + word + "-" + i + ".txt\"}";
    String summary = i % 3 == 0 ? "wrote " + word.toUpperCase(Locale.ROOT) : null;
    return new AuditEntry(
        AuditKind.DECISION,
        "trace-" + (i % 11),
        "call-" + i,
        i % 2 == 0 ? "files.read_text" : "files.write_text",
        "h" + i,
        preview,
        Decision.ALLOWED,
        "allowed by policy",
        null,
        null,
        i % 5 == 0 ? "TOKEN_EXPIRED" : null,
        summary,
        Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i),
        null);
  }

  /** What LIKE over every field finds: the reference the index must equal. */
  private static List<String> expected(int rows, String text, Audit.QueryParams p) {
    List<String> out = new ArrayList<>();
    String needle = text.toLowerCase(Locale.ROOT);
    for (int i = rows; i >= 1; i--) {
      AuditEntry e = entry(i);
      if (p.tool() != null && !p.tool().equals(e.tool())) continue;
      boolean hit = Stream.of(
              e.tool(),
              e.summary(),
              e.argsPreview(),
              e.reason(),
              e.traceId(),
              e.callId(),
              e.errorCode(),
              e.tokenId())
          .anyMatch(
              f -> f != null && Text.clean(f, 100_000).toLowerCase(Locale.ROOT).contains(needle));
      if (hit) out.add(Integer.toString(i));
    }
    return out;
  }

  private static List<String> all(AuditLog log, String text, String tool, int page)
      throws Exception {
    List<String> ids = new ArrayList<>();
    String cursor = null;
    do {
      Audit.QueryResult r = log.query(
          new Audit.QueryParams(tool, null, null, null, text, null, null, page, cursor), page);
      assertTrue(r.rows().size() <= page);
      r.rows().forEach(row -> ids.add(row.auditId()));
      cursor = r.nextCursor();
    } while (cursor != null);
    return ids;
  }

  private static void fill(AuditLog log, int from, int to) throws Exception {
    for (int i = from; i <= to; i++) log.record(entry(i));
  }

  private static void awaitIndexed(AuditLog log) throws InterruptedException {
    for (int i = 0; i < 500 && !log.textIndexReady(); i++) Thread.sleep(20);
    assertTrue(log.textIndexReady(), "the text index caught up");
  }

  @Test
  void filters_through_the_index_equal_a_scan_of_every_row_across_chunks_and_pages()
      throws Exception {
    int rows = 30_000; // several 1 MB chunks of the index file
    try (AuditLog log = AuditLog.open(data, Durability.PROCESS)) {
      fill(log, 1, rows);
      awaitIndexed(log);
      for (String text : new String[] {
        "quarterly",
        "ZANZIBAR-2",
        "CAFÉ",
        "straße",
        "a_b%c",
        "call-29999",
        "token_exp",
        "-1.txt",
        "no such text"
      }) {
        Audit.QueryParams none =
            new Audit.QueryParams(null, null, null, null, text, null, null, 200, null);
        assertEquals(expected(rows, text, none), all(log, text, null, 500), text);
      }
      Audit.QueryParams reads = new Audit.QueryParams(
          "files.read_text", null, null, null, "notes", null, null, 200, null);
      assertEquals(expected(rows, "notes", reads), all(log, "notes", "files.read_text", 137));
    }
  }

  @Test
  void a_torn_or_missing_index_is_mended_from_h2_at_start() throws Exception {
    try (AuditLog log = AuditLog.open(data, Durability.PROCESS)) {
      fill(log, 1, 2000);
      awaitIndexed(log);
    }
    Path file = data.resolve(TextIndex.FILE);
    Files.write(
        file,
        "files.write_text\u001fhalf a li".getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.APPEND); // a crash mid-append
    try (AuditLog log = AuditLog.open(data, Durability.PROCESS)) {
      fill(log, 2001, 2500);
      awaitIndexed(log);
      Audit.QueryParams p =
          new Audit.QueryParams(null, null, null, null, "zanzibar", null, null, 200, null);
      assertEquals(expected(2500, "zanzibar", p), all(log, "zanzibar", null, 200));
    }
    Files.delete(file);
    try (AuditLog log = AuditLog.open(data, Durability.PROCESS)) {
      awaitIndexed(log);
      Audit.QueryParams p =
          new Audit.QueryParams(null, null, null, null, "café", null, null, 200, null);
      assertEquals(expected(2500, "café", p), all(log, "café", null, 200));
      assertTrue(Files.size(file) > 0, "rebuilt");
    }
  }
}
