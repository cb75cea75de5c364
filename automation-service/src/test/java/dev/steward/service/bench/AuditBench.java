package dev.steward.service.bench;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.method.Audit;
import dev.steward.service.audit.AuditEntry;
import dev.steward.service.audit.AuditLog;
import dev.steward.service.audit.Durability;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Issue 6's audit figures: a log of 1,000,000 rows, then {@code audit.query}'s first page (what the
 * panel shows when it opens) and text searches — a word in one row in ten, and a word in ten rows
 * of the million (the worst case: no early stop) — p50 over repeated runs, warm.
 */
final class AuditBench {

  private static final int ROWS = 1_000_000;

  private AuditBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    Path data = tmp.resolve("audit-million");
    long t0 = System.nanoTime();
    try (AuditLog log = AuditLog.open(data, Durability.PROCESS)) {
      String[] tools = {
        "files.read_text",
        "files.write_text",
        "files.list_dir",
        "browser.open_url",
        "clipboard.read"
      };
      Instant at = Instant.parse("2026-01-01T00:00:00Z");
      for (int i = 1; i <= ROWS; i++) {
        String tool = tools[i % tools.length];
        String word = i % 10 == 0 ? "quarterly" : i % 100_000 == 7 ? "zanzibar" : "notes";
        String preview = "{\"path\":\"~/Steward/" + word + "-" + i + ".txt\"}";
        log.record(new AuditEntry(
            AuditKind.DECISION,
            "t" + i,
            "c" + i,
            tool,
            "h" + i,
            preview,
            Decision.ALLOWED,
            "allowed by policy",
            null,
            null,
            null,
            null,
            at.plusMillis(i),
            null));
      }
      double loadS = (System.nanoTime() - t0) / 1e9;
      // The loader thread moves rows from the journal to H2 in the background: wait for the last.
      while (log.query(new Audit.QueryParams(null, null, null, null, null, null, null, 1, null), 1)
              .rows()
              .isEmpty()
          || !log.query(new Audit.QueryParams(null, null, null, null, null, null, null, 1, null), 1)
              .rows()
              .get(0)
              .auditId()
              .equals(Integer.toString(ROWS))) {
        Thread.sleep(200);
      }
      table.add(new String[] {
        "audit log: 1,000,000 rows written",
        String.format("%.1f s", loadS),
        "in-process, journal then H2"
      });
      table.add(new String[] {
        "audit.query first page (200 rows), p50",
        ms(time(log, null)),
        "what the panel shows on opening"
      });
      table.add(new String[] {
        "audit.query text in 1 row in 10, p50", ms(time(log, "quarterly")), "target ≤ 100 ms"
      });
      table.add(new String[] {
        "audit.query text in 10 of 1,000,000 rows, p50",
        ms(time(log, "zanzibar")),
        "target ≤ 100 ms; scans every row"
      });
    }
  }

  private static long[] time(AuditLog log, String text) throws Exception {
    long[] ns = new long[text != null && text.equals("zanzibar") ? 5 : 20];
    for (int i = -2; i < ns.length; i++) {
      long t0 = System.nanoTime();
      Audit.QueryResult r = log.query(
          new Audit.QueryParams(null, null, null, null, text, null, null, 200, null), 200);
      long t1 = System.nanoTime();
      if (r.rows().isEmpty()) throw new IllegalStateException("no rows for " + text);
      if (i >= 0) ns[i] = t1 - t0;
    }
    return ns;
  }

  private static String ms(long[] ns) {
    long[] s = ns.clone();
    Arrays.sort(s);
    return String.format("%.1f ms", s[s.length / 2] / 1e6);
  }
}
