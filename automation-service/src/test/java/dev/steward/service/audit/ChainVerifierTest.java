package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.method.Audit;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chain check alone, over rows in a real H2 file: what it accepts and the first row it names. */
class ChainVerifierTest {

  private static final ChainKey KEY =
      new ChainKey("k".repeat(32).getBytes(java.nio.charset.StandardCharsets.US_ASCII), 1);

  @TempDir
  Path dir;

  AuditStore store;

  @BeforeEach
  void open() throws Exception {
    store = AuditStore.open(dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** args_hash is a fixed-width column: a SHA-256 in hex, as the gate writes it. */
  private static AuditEntry entry(int i) {
    return new AuditEntry(
        AuditKind.DECISION,
        "t",
        "c" + i,
        "files.read_text",
        String.format("%064x", i),
        "{}",
        Decision.ALLOWED,
        "allowed by policy",
        null,
        null,
        null,
        null,
        Instant.ofEpochSecond(1_700_000_000L + i),
        null);
  }

  private List<ChainedRow> chain(int n, ChainKey key) {
    List<ChainedRow> rows = new ArrayList<>();
    String prev = ChainedRow.GENESIS;
    for (int i = 1; i <= n; i++) {
      ChainedRow r = ChainedRow.chain(i, entry(i), prev, key);
      rows.add(r);
      prev = r.rowHash();
    }
    return rows;
  }

  private Audit.VerifyResult verify(
      List<ChainedRow> stored, ChainMark acknowledged, ChainMark sealed) throws Exception {
    store.insert(stored);
    return ChainVerifier.verify(store, KEY, acknowledged, sealed, hash -> true);
  }

  @Test
  void an_intact_keyed_chain_verifies() throws Exception {
    List<ChainedRow> rows = chain(5, KEY);
    Audit.VerifyResult v = verify(rows, ChainMark.of(rows.get(4)), ChainMark.of(rows.get(2)));
    assertTrue(v.ok(), v.problem());
    assertEquals(5, v.rowsChecked());
  }

  @Test
  void rows_chained_without_the_key_are_named_at_the_first() throws Exception {
    List<ChainedRow> rows = chain(5, ChainKey.none());
    Audit.VerifyResult v = verify(rows, ChainMark.of(rows.get(4)), ChainMark.START);
    assertFalse(v.ok());
    assertEquals("1", v.firstBadRow());
    assertTrue(v.problem().contains("changed after it was written"), v.problem());
  }

  @Test
  void a_tail_shorter_than_the_sealed_head_is_cut() throws Exception {
    List<ChainedRow> rows = chain(6, KEY);
    Audit.VerifyResult v =
        verify(rows.subList(0, 4), ChainMark.of(rows.get(3)), ChainMark.of(rows.get(5)));
    assertFalse(v.ok());
    assertEquals("5", v.firstBadRow());
    assertTrue(v.problem().contains("kept outside the data folder"), v.problem());
  }

  @Test
  void a_row_that_is_not_the_one_the_sealed_head_names_is_found() throws Exception {
    List<ChainedRow> rows = chain(4, KEY);
    Audit.VerifyResult v =
        verify(rows, ChainMark.of(rows.get(3)), new ChainMark(2, "ab".repeat(32)));
    assertFalse(v.ok());
    assertEquals("2", v.firstBadRow());
  }

  @Test
  void a_row_recording_a_cut_at_start_is_named() throws Exception {
    List<ChainedRow> rows = chain(2, KEY);
    List<ChainedRow> all = new ArrayList<>(rows);
    all.add(ChainedRow.chain(3, cutRecord(), rows.get(1).rowHash(), KEY));
    Audit.VerifyResult v = verify(all, ChainMark.of(all.get(2)), ChainMark.START);
    assertFalse(v.ok());
    assertEquals("3", v.firstBadRow());
    assertEquals("rows 3 to 9 were cut off", v.problem());
  }

  @Test
  void a_change_after_a_recorded_cut_is_found_not_hidden_behind_it() throws Exception {
    List<ChainedRow> all = new ArrayList<>(chain(2, KEY));
    all.add(ChainedRow.chain(3, cutRecord(), all.get(1).rowHash(), KEY));
    ChainedRow four = ChainedRow.chain(4, entry(4), all.get(2).rowHash(), KEY);
    ChainedRow five = ChainedRow.chain(5, entry(5), four.rowHash(), KEY);
    // Row 4 replaced by another, chained as well, after the cut was recorded.
    all.add(ChainedRow.chain(4, entry(44), all.get(2).rowHash(), KEY));
    all.add(five);
    Audit.VerifyResult v = verify(all, ChainMark.of(five), ChainMark.START);
    assertFalse(v.ok());
    assertEquals("5", v.firstBadRow(), v.problem());
    assertTrue(v.problem().contains("and row 3 records: rows 3 to 9 were cut off"), v.problem());
  }

  @Test
  void the_newest_of_two_recorded_cuts_is_named() throws Exception {
    List<ChainedRow> all = new ArrayList<>(chain(2, KEY));
    all.add(ChainedRow.chain(3, cutRecord(), all.get(1).rowHash(), KEY));
    all.add(ChainedRow.chain(4, entry(4), all.get(2).rowHash(), KEY));
    all.add(ChainedRow.chain(5, cutRecord(), all.get(3).rowHash(), KEY));
    Audit.VerifyResult v = verify(all, ChainMark.of(all.get(4)), ChainMark.START);
    assertFalse(v.ok());
    assertEquals("5", v.firstBadRow(), v.problem());
    assertTrue(v.problem().contains("the newest of 2 rows that record a cut"), v.problem());
  }

  private static AuditEntry cutRecord() {
    return new AuditEntry(
        AuditKind.PROTOCOL,
        null,
        null,
        null,
        null,
        null,
        Decision.BLOCKED,
        "rows 3 to 9 were cut off",
        null,
        Outcome.ERROR,
        AuditLog.TAMPERED,
        "altered",
        Instant.ofEpochSecond(1_700_000_100L),
        null);
  }
}
