package dev.steward.service.audit;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Edits to the H2 file between runs are found by audit.verify, at the right row. */
class AuditTamperIT {

  TestService t;

  @BeforeEach
  void fill() {
    t = TestService.start();
    StewardClient agent = t.client(Role.AGENT);
    for (int i = 0; i < 10; i++) {
      TestService.exec(agent, "files.ensure_dir", args("path", "d" + i)); // 2 rows each
    }
    t.stop();
  }

  @AfterEach
  void clean() {
    t.close();
  }

  private void sql(String statement) throws Exception {
    try (Connection c = DriverManager.getConnection(AuditStore.url(t.home.data()));
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private Audit.VerifyResult restartAndVerify() throws Exception {
    t.restart();
    return t.client(Role.UI).call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
  }

  @Test
  void an_untouched_log_verifies_after_a_restart() throws Exception {
    Audit.VerifyResult v = restartAndVerify();
    assertTrue(v.ok(), v.problem());
    assertEquals(20, v.rowsChecked());
  }

  @Test
  void an_edited_middle_row_is_named() throws Exception {
    sql("UPDATE audit SET summary = 'nothing happened' WHERE seq = 7");
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals("7", v.firstBadRow());
  }

  @Test
  void a_deleted_middle_row_is_named() throws Exception {
    sql("DELETE FROM audit WHERE seq = 9");
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals("9", v.firstBadRow());
  }

  @Test
  void reordered_rows_are_found() throws Exception {
    sql("UPDATE audit SET seq = -1 WHERE seq = 5");
    sql("UPDATE audit SET seq = 5 WHERE seq = 6");
    sql("UPDATE audit SET seq = 6 WHERE seq = -1");
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals("5", v.firstBadRow());
  }

  @Test
  void a_cut_tail_is_detected() throws Exception {
    sql("DELETE FROM audit WHERE seq > 17");
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals("18", v.firstBadRow());
    assertTrue(v.problem().contains("cut off"), v.problem());
  }

  @Test
  void newlines_escapes_and_huge_strings_are_stored_safely() throws Exception {
    t.restart();
    StewardClient agent = t.client(Role.AGENT);
    StewardClient ui = t.client(Role.UI);
    String nasty = "line1\nline2\r\u001b[31mred\u001b[0m\u0007";
    String call = TestService.id();
    ToolResult ok = agent.execute(new Execute.Params(
        TestService.id(),
        call,
        "files.write_text",
        args("path", "n.txt", "content", "x".repeat(900_000), "encoding", "utf-8"),
        null,
        null));
    assertTrue(ok.ok(), String.valueOf(ok.error()));
    String call2 = TestService.id();
    agent.execute(new Execute.Params(
        TestService.id(),
        call2,
        "files.read_text",
        args("path", nasty + "y".repeat(900_000)),
        null,
        null));
    for (String c : new String[] {call, call2}) {
      for (Audit.Row row : t.rows(ui, c)) {
        for (String field : new String[] {row.argsPreview(), row.reason(), row.summary()}) {
          if (field == null) continue;
          assertTrue(field.length() <= 2000, "bounded: " + field.length());
          assertTrue(
              field.chars().noneMatch(ch -> ch < 0x20 || ch == 0x7f),
              "no control characters: " + field);
        }
      }
    }
    Audit.VerifyResult v = ui.call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
    assertTrue(v.ok(), v.problem());
  }

  /** Every row as H2 holds it, oldest first. */
  private java.util.List<ChainedRow> storedRows() throws Exception {
    java.util.List<ChainedRow> rows = new java.util.ArrayList<>();
    AuditStore store = AuditStore.open(t.home.data());
    try {
      store.scan(rows::add);
    } finally {
      store.close();
    }
    return rows;
  }

  @Test
  void a_log_rewritten_with_recomputed_plain_hashes_is_found() throws Exception {
    // Whoever can write the data folder rewrites a row and every hash after it, as SHA-256 chains
    // are recomputed — and the journal's head with them. Without the key in config/, it cannot
    // make the hashes the service computes.
    java.util.List<ChainedRow> rows = storedRows();
    String prev = ChainedRow.GENESIS;
    for (ChainedRow r : rows) {
      AuditEntry e = r.entry();
      if (r.seq() == 7) {
        e = new AuditEntry(
            e.kind(),
            e.traceId(),
            e.callId(),
            e.tool(),
            e.argsHash(),
            e.argsPreview(),
            e.decision(),
            e.reason(),
            e.tokenId(),
            e.result(),
            e.errorCode(),
            "nothing happened",
            e.startedAt(),
            e.endedAt());
      }
      String hash = ChainedRow.hash(r.seq(), e, prev);
      sql("UPDATE audit SET summary = "
          + (e.summary() == null ? "NULL" : "'" + e.summary().replace("'", "''") + "'")
          + ", prev_hash = '" + prev + "', row_hash = '" + hash + "' WHERE seq = " + r.seq());
      prev = hash;
    }
    Journal.create(Journal.fileIn(t.home.data()), rows.size(), prev).close();
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals(
        "1", v.firstBadRow(), "the first row already is not sealed with the key: " + v.problem());
  }

  @Test
  void a_tail_cut_from_the_log_and_its_journal_alike_is_found() throws Exception {
    java.util.List<ChainedRow> rows = storedRows();
    sql("DELETE FROM audit WHERE seq > 16");
    Journal.create(Journal.fileIn(t.home.data()), 16, rows.get(15).rowHash()).close();
    Audit.VerifyResult v = restartAndVerify();
    assertFalse(v.ok());
    assertEquals("17", v.firstBadRow(), v.problem());
    assertTrue(v.problem().contains("17 to 20 were cut off"), v.problem());
    // The finding is a row of its own: later rows do not hide it.
    StewardClient agent = t.client(Role.AGENT);
    TestService.exec(agent, "files.ensure_dir", args("path", "later"));
    Audit.VerifyResult again =
        t.client(Role.UI).call(Methods.AUDIT_VERIFY, null, Audit.VerifyResult.class);
    assertFalse(again.ok());
    assertEquals("17", again.firstBadRow());
  }
}
