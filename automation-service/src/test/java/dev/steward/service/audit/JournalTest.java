package dev.steward.service.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {

  @TempDir
  Path tmp;

  private static ChainedRow row(long seq, String prev, String summary) {
    return ChainedRow.chain(
        seq,
        new AuditEntry(
            AuditKind.DECISION,
            "t",
            "c" + seq,
            "files.read_text",
            null,
            null,
            Decision.ALLOWED,
            null,
            null,
            null,
            null,
            summary,
            Instant.now(),
            null),
        prev);
  }

  @Test
  void a_line_torn_in_the_middle_of_a_character_costs_only_that_line() throws Exception {
    Path file = tmp.resolve("audit.journal");
    ChainedRow one = row(1, ChainedRow.GENESIS, "café…");
    ChainedRow two = row(2, one.rowHash(), "naïve ✓");
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS)) {
      appendAll(j, List.of(one, two));
    }
    byte[] bytes = Files.readAllBytes(file);
    byte[] torn = java.util.Arrays.copyOf(bytes, bytes.length - 8); // inside "✓"'s line
    Files.write(file, torn);
    Files.write(file, new byte[] {(byte) 0xE2}, StandardOpenOption.APPEND); // half of a character
    Journal.Recovery r = Journal.read(file);
    assertTrue(r.tornTail());
    assertEquals(1, r.rows().size());
    assertEquals("café…", r.rows().get(0).entry().summary());
    assertTrue(r.rows().get(0).hashMatches());
  }

  @Test
  void damage_before_the_last_line_is_an_error_not_a_silent_loss() throws Exception {
    Path file = tmp.resolve("audit.journal");
    Files.writeString(
        file,
        "{\"head\":true,\"seq\":0,\"row_hash\":\"" + ChainedRow.GENESIS
            + "\"}\n{garbage\n{\"also\":\"garbage\"}\n",
        StandardCharsets.UTF_8);
    assertThrows(IOException.class, () -> Journal.read(file));
  }

  @Test
  void rotation_keeps_exactly_the_rows_after_the_new_head_and_appends_go_on_after_them()
      throws Exception {
    Path file = tmp.resolve("audit.journal");
    List<ChainedRow> rows = chain(
        40, i -> i % 3 == 0 ? "ünïcode ✓ " + i : "row " + i); // multi-byte lines move the offsets
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS)) {
      appendAll(j, rows.subList(0, 30));
      j.rotate(12, rows.get(11).rowHash());
      assertEquals(18, j.rowCount());
      appendAll(j, rows.subList(30, 35));
      j.rotate(25, rows.get(24).rowHash());
      appendAll(j, rows.subList(35, 40));
      assertEquals(15, j.rowCount());
      j.rotate(40, rows.get(39).rowHash()); // everything is in H2: only the head stays
      assertEquals(0, j.rowCount());
    }
    Journal.Recovery r = Journal.read(file);
    assertEquals(40, r.headSeq());
    assertEquals(rows.get(39).rowHash(), r.headHash());
    assertTrue(r.rows().isEmpty());
  }

  @Test
  void a_rotated_journal_reads_back_the_kept_rows_whole() throws Exception {
    Path file = tmp.resolve("audit.journal");
    List<ChainedRow> rows = chain(30, i -> i % 2 == 0 ? "naïve " + "é".repeat(i) : "plain " + i);
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS)) {
      appendAll(j, rows.subList(0, 10));
      j.rotate(4, rows.get(3).rowHash());
      appendAll(j, rows.subList(10, 30));
      j.rotate(21, rows.get(20).rowHash());
    }
    Journal.Recovery r = Journal.read(file);
    assertEquals(21, r.headSeq());
    assertEquals(
        rows.subList(21, 30).stream().map(ChainedRow::seq).toList(),
        r.rows().stream().map(ChainedRow::seq).toList());
    for (int i = 0; i < r.rows().size(); i++) {
      assertEquals(rows.get(21 + i).entry().summary(), r.rows().get(i).entry().summary());
      assertTrue(r.rows().get(i).hashMatches());
    }
    assertTrue(!r.tornTail());
  }

  private static final AuditEntry AWKWARD = new AuditEntry(
      AuditKind.DECISION,
      "trace/t-1",
      "call-1",
      "files.read_text",
      "ab".repeat(32),
      "{\"path\":\"caf\u00e9 \u2713 \ud834\udd1e\"}",
      Decision.ALLOWED,
      "line\nbreak\t\u001b[31mred\u0000",
      null,
      null,
      null,
      "lone \ud800 surrogate \"quoted\" back\\slash",
      Instant.ofEpochSecond(1_700_000_000L, 123_456_000L),
      null);
  private static final AuditEntry PLAIN = new AuditEntry(
      AuditKind.COMPLETION,
      "t",
      "c",
      "x",
      null,
      null,
      Decision.BLOCKED,
      null,
      "tok",
      Outcome.ERROR,
      "SCOPE_DENIED",
      "plain",
      Instant.ofEpochSecond(1_700_000_001L),
      Instant.ofEpochSecond(1_700_000_002L, 5_000L));

  @Test
  void row_hashes_are_the_ones_logs_already_hold() {
    // Pinned from the implementation that wrote earlier logs: a change here breaks every verify.
    assertEquals(
        "8d981435789d354d821657be3359866dd8084619158999dc462eaa544b52bbde",
        ChainedRow.hash(7, AWKWARD, ChainedRow.GENESIS));
    assertEquals(
        "e814a5b0872b8d0b12e44c42b054945ae41aa46b9d92a054588c5ed4eedca3f3",
        ChainedRow.hash(8, PLAIN, "cd".repeat(32)));
    assertEquals(
        ChainedRow.hash(7, AWKWARD, ChainedRow.GENESIS),
        ChainedRow.hash(7, AWKWARD, ChainedRow.GENESIS)); // the thread's buffers are reused cleanly
  }

  @Test
  void journal_lines_read_back_to_rows_whose_hashes_verify_escapes_and_all() throws Exception {
    Path file = tmp.resolve("audit.journal");
    ChainedRow awkward = ChainedRow.chain(1, AWKWARD, ChainedRow.GENESIS);
    ChainedRow plain = ChainedRow.chain(2, PLAIN, awkward.rowHash());
    ChainedRow big = ChainedRow.chain(
        3,
        new AuditEntry(
            AuditKind.DECISION,
            "t",
            "c3",
            "x",
            null,
            "y".repeat(200_000),
            Decision.ALLOWED,
            null,
            null,
            null,
            null,
            "big ✓",
            Instant.ofEpochSecond(1_700_000_003L),
            null),
        plain.rowHash());
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS)) {
      appendAll(j, List.of(awkward, plain, big));
    }
    Journal.Recovery r = Journal.read(file);
    assertEquals(3, r.rows().size());
    for (ChainedRow row : r.rows()) assertTrue(row.hashMatches(), "row " + row.seq());
    assertEquals(awkward.entry().reason(), r.rows().get(0).entry().reason());
    assertEquals(awkward.entry().argsPreview(), r.rows().get(0).entry().argsPreview());
    assertEquals(awkward.rowHash(), r.rows().get(0).rowHash());
    assertEquals(PLAIN, r.rows().get(1).entry());
    assertEquals(big.entry(), r.rows().get(2).entry());
    assertEquals(List.of(1L, 2L, 3L), r.rows().stream().map(ChainedRow::seq).toList());
  }

  @Test
  void a_rotation_that_fails_leaves_the_journal_working_and_whole() throws Exception {
    Path file = tmp.resolve("audit.journal");
    List<ChainedRow> rows = chain(6, i -> "row " + i);
    try (Journal j = Journal.create(file, 0, ChainedRow.GENESIS)) {
      appendAll(j, rows.subList(0, 3));
      Files.createDirectories(
          tmp.resolve("audit.journal.tmp")); // the new journal cannot be written
      assertThrows(IOException.class, () -> j.rotate(2, rows.get(1).rowHash()));
      appendAll(j, rows.subList(3, 6));
      assertEquals(6, j.rowCount());
    }
    Journal.Recovery r = Journal.read(file);
    assertEquals(0, r.headSeq());
    assertEquals(
        List.of(1L, 2L, 3L, 4L, 5L, 6L), r.rows().stream().map(ChainedRow::seq).toList());
  }

  /** Rows 1 to {@code n}, chained, with the summaries given. */
  private static List<ChainedRow> chain(int n, java.util.function.IntFunction<String> summary) {
    List<ChainedRow> rows = new java.util.ArrayList<>();
    String prev = ChainedRow.GENESIS;
    for (int i = 1; i <= n; i++) {
      ChainedRow r = row(i, prev, summary.apply(i));
      rows.add(r);
      prev = r.rowHash();
    }
    return rows;
  }

  private static void appendAll(Journal j, List<ChainedRow> rows) throws IOException {
    for (ChainedRow r : rows) j.append(r);
  }
}
