package dev.steward.service.audit;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The chain head kept, sealed, outside the data folder ({@link ChainHeadFile}), and the key the
 * chain is sealed with from {@code keyed_from} on. At start it tells whether the log lost rows, or
 * rows were replaced, while the service was stopped; afterwards it moves forward only.
 */
final class SealedHead {

  private static final Logger LOG = Logger.getLogger(SealedHead.class.getName());

  private final @Nullable ChainHeadFile file;
  private final ChainKey key;
  private volatile ChainMark sealed;
  private final @Nullable String problemAtStart;

  private SealedHead(
      @Nullable ChainHeadFile file,
      ChainKey key,
      ChainMark sealed,
      @Nullable String problemAtStart) {
    this.file = file;
    this.key = key;
    this.sealed = sealed;
    this.problemAtStart = problemAtStart;
  }

  /** No key and no head outside the data folder: plain SHA-256 rows. */
  static SealedHead none() {
    return new SealedHead(null, ChainKey.none(), ChainMark.START, null);
  }

  /** Reads the kept head (if any) and compares it with the log as recovered ({@code last}). */
  static SealedHead open(byte[] auditKey, Path headPath, ChainMark last, AuditStore store)
      throws IOException, SQLException {
    ChainHeadFile file = new ChainHeadFile(headPath, auditKey);
    Optional<ChainHeadFile.Head> kept = file.read();
    ChainKey key =
        new ChainKey(auditKey, kept.map(ChainHeadFile.Head::keyedFrom).orElse(last.seq() + 1));
    if (kept.isEmpty()) return new SealedHead(file, key, ChainMark.START, null);
    ChainHeadFile.Head head = kept.get();
    String problem = null;
    if (!head.sealed()) {
      problem = "the chain head kept in " + headPath + " was altered";
    } else if (last.seq() < head.seq()) {
      problem = "rows " + (last.seq() + 1) + " to " + head.seq()
          + " were cut off the log while the service was stopped";
    } else if (store.row(head.seq()).map(r -> !r.rowHash().equals(head.hash())).orElse(false)) {
      problem =
          "row " + head.seq() + " is not the row the chain head kept outside the data folder names";
    }
    return new SealedHead(file, key, new ChainMark(head.seq(), head.hash()), problem);
  }

  ChainKey key() {
    return key;
  }

  /** The head last kept: the log must reach it, with this hash. */
  ChainMark sealed() {
    return sealed;
  }

  /** What the start found wrong with the log, to be recorded in a row of its own; empty when nothing. */
  Optional<String> problemAtStart() {
    return Optional.ofNullable(problemAtStart);
  }

  /** Keeps {@code head} outside the data folder, unless it is behind what is kept there already. */
  void seal(ChainMark head) {
    if (head.seq() < sealed.seq()) return;
    keep(head);
  }

  /**
   * Keeps {@code head} even behind what is kept: once the log holds a row recording the cut the
   * start found ({@link #problemAtStart}), the head names that row, and what comes after it is
   * checked against it, not against rows that are gone.
   */
  void sealAfterRecordedCut(ChainMark head) {
    keep(head);
  }

  private void keep(ChainMark head) {
    ChainHeadFile f = file;
    if (f == null) return;
    try {
      f.write(key.keyedFrom(), head.seq(), head.hash());
      sealed = head;
    } catch (IOException e) {
      LOG.log(Level.WARNING, "audit: cannot keep the chain head outside the data folder", e);
    }
  }
}
