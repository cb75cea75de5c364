package dev.steward.service.audit;

import dev.steward.protocol.audit.WholeArgs;
import dev.steward.protocol.method.Audit;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Recomputes the whole chain H2 holds: the first row whose number, link or hash does not hold is
 * named, and so is a row that records the log was cut while the service was stopped; rows cut off
 * the end are found by comparing with the heads kept outside H2 — the journal's (every
 * acknowledged row) and the sealed one outside the data folder. A row whose preview was cut is
 * checked to have its whole arguments kept beside the log, as its preview's hash names them. A
 * recorded cut is named, yet the check goes on past it: a change after it is found, not hidden
 * behind an old report the user has learnt to see.
 */
final class ChainVerifier {

  private final ChainKey key;
  private final java.util.function.Predicate<String> wholeKept;
  /** The rows that name a kept whole, by the hash they name: the first of each is checked. */
  private final java.util.Map<String, Long> wholes = new java.util.LinkedHashMap<>();

  private @Nullable String firstBad;
  private @Nullable String problem;
  /** The newest row that records the log was cut, what it says, and how many there are. */
  private long recordedCut;

  private int recordedCuts;

  private @Nullable String recordedWhy;
  private long count;
  private long expectedSeq = 1;
  private String prev = ChainedRow.GENESIS;

  private ChainVerifier(ChainKey key, java.util.function.Predicate<String> wholeKept) {
    this.key = key;
    this.wholeKept = wholeKept;
  }

  /** {@code wholeKept}: whether the whole arguments of this hash are kept, and match it. */
  static Audit.VerifyResult verify(
      AuditStore store,
      ChainKey key,
      ChainMark acknowledged,
      ChainMark sealed,
      java.util.function.Predicate<String> wholeKept)
      throws SQLException {
    ChainVerifier v = new ChainVerifier(key, wholeKept);
    store.scan(row -> v.check(row, sealed));
    // Read once the scan (and the store's reader with it) is free again.
    v.checkWholes();
    return v.result(acknowledged, sealed);
  }

  private void check(ChainedRow row, ChainMark sealed) {
    if (problem != null) return;
    count++;
    if (row.seq() != expectedSeq) {
      bad(Math.min(row.seq(), expectedSeq), "row " + expectedSeq + " is missing or out of order");
    } else if (!row.prevHash().equals(prev)) {
      bad(row.seq(), "row " + row.seq() + " does not link to the row before it");
    } else if (!row.hashMatches(key)) {
      bad(row.seq(), "row " + row.seq() + " was changed after it was written");
    } else if (row.seq() == sealed.seq() && !row.rowHash().equals(sealed.hash())) {
      bad(
          row.seq(),
          "row " + row.seq() + " is not the row the chain head kept outside the data folder names");
    }
    if (problem == null && AuditLog.TAMPERED.equals(row.entry().errorCode())) {
      // The newest is named (a cut found at a later start must not read as the old one).
      recordedCuts++;
      recordedCut = row.seq();
      recordedWhy = String.valueOf(row.entry().reason());
    }
    if (problem == null) {
      String whole = WholeArgs.named(row.entry().kind(), row.entry().argsPreview());
      if (whole != null) wholes.putIfAbsent(whole, row.seq());
    }
    prev = row.rowHash();
    expectedSeq = row.seq() + 1;
  }

  /** The first row whose kept whole is missing or changed, if it comes before any other problem. */
  private void checkWholes() {
    for (var named : wholes.entrySet()) {
      long seq = named.getValue();
      if (problem != null && firstBad != null && Long.parseLong(firstBad) <= seq) return;
      if (!wholeKept.test(named.getKey())) {
        bad(
            seq,
            "the whole arguments of row " + seq + " (kept beside the log) are missing or were"
                + " changed");
        return;
      }
    }
  }

  private void bad(long seq, String why) {
    firstBad = Long.toString(seq);
    problem = why;
  }

  private Audit.VerifyResult result(ChainMark acknowledged, ChainMark sealed) {
    Audit.VerifyResult found = found(acknowledged, sealed);
    String why = recordedWhy;
    if (why == null) return found;
    String more =
        recordedCuts > 1 ? " (the newest of " + recordedCuts + " rows that record a cut)" : "";
    if (found.ok())
      return new Audit.VerifyResult(false, count, Long.toString(recordedCut), why + more);
    return new Audit.VerifyResult(
        false,
        count,
        found.firstBadRow(),
        found.problem() + " (and row " + recordedCut + " records: " + why + ")" + more);
  }

  private Audit.VerifyResult found(ChainMark acknowledged, ChainMark sealed) {
    if (problem != null) return new Audit.VerifyResult(false, count, firstBad, problem);
    long last = expectedSeq - 1;
    if (last < sealed.seq()) {
      return new Audit.VerifyResult(
          false,
          count,
          Long.toString(last + 1),
          "rows after " + last
              + " were cut off (the chain head kept outside the data folder names row "
              + sealed.seq() + ")");
    }
    if (last < acknowledged.seq()) {
      return new Audit.VerifyResult(
          false,
          count,
          Long.toString(last + 1),
          "rows after " + last + " were cut off (the log had " + acknowledged.seq() + ")");
    }
    if (last == acknowledged.seq() && !prev.equals(acknowledged.hash())) {
      return new Audit.VerifyResult(
          false, count, Long.toString(last), "the newest row does not match the chain head");
    }
    return new Audit.VerifyResult(true, count, null, null);
  }
}
