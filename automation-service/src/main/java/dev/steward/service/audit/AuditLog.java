package dev.steward.service.audit;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The append-only, hash-chained audit log (SPEC §7), put together from its parts: rows are sealed
 * and chained here ({@link ChainedRow}, {@link ChainKey}) and appended to the {@link Journal} under
 * one lock, on the caller's thread; a row is acknowledged once it is written there. The {@link
 * AuditLoader} copies rows into H2 ({@link AuditStore}) and the {@link TextIndex}; queries go
 * through {@link AuditQueries}, verification through {@link ChainVerifier}; the head kept outside
 * the data folder is {@link SealedHead}. After H2 checkpoints, the journal is rotated. Every
 * acknowledged row survives a crash of the service at any point.
 */
public final class AuditLog implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());
  private static final long FSYNC_EVERY_NANOS = Duration.ofMillis(200).toNanos();
  private static final Duration READER_WAIT = Duration.ofSeconds(30);

  /**
   * What rehearsed rows are sealed with: a key of their own, never the install's, and no secret
   * (the rows are thrown away), so that the HMAC a keyed log uses is what runs.
   */
  private static final ChainKey REHEARSAL_KEY = new ChainKey(
      "steward audit rehearsal".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 1);

  /** The error code of the row that records rows found cut off the log at a start. */
  static final String TAMPERED = "AUDIT_TAMPERED";

  private final AuditStore store;
  private final Journal journal;
  private final Durability durability;
  private final @Nullable TextIndex textIndex;
  private final KeptArgs kept;
  private final SealedHead head;
  private final AuditLoader loader;
  private final AuditQueries queries;
  private final Object appendLock = new Object();

  // guarded by appendLock
  private ChainMark last;
  private ChainMark journalHead;
  private long lastForce = System.nanoTime();
  private boolean unforced;
  private boolean running = true;

  private volatile ChainMark acked;

  private AuditLog(
      AuditStore store,
      @Nullable TextIndex textIndex,
      Journal journal,
      Durability durability,
      ChainMark recovered,
      SealedHead head,
      KeptArgs kept) {
    this.store = store;
    this.kept = kept;
    this.textIndex = textIndex;
    this.journal = journal;
    this.durability = durability;
    this.head = head;
    this.last = recovered;
    this.journalHead = recovered;
    this.acked = recovered;
    this.loader = new AuditLoader(
        store,
        textIndex,
        new AuditLoader.Upkeep() {
          @Override
          public boolean journalUnsynced() {
            synchronized (appendLock) {
              return unforced;
            }
          }

          @Override
          public void syncJournalIfDue() {
            AuditLog.this.syncJournalIfDue();
          }

          @Override
          public void checkpointed(ChainMark mark) {
            head.seal(mark);
          }
        },
        recovered,
        READER_WAIT);
    this.queries = new AuditQueries(store, textIndex, loader::textReady);
  }

  /** Opens a log whose rows are sealed with plain SHA-256 and whose head is kept only beside it. */
  public static AuditLog open(Path dataDir, Durability durability) throws IOException {
    return open(dataDir, durability, null, null);
  }

  /**
   * Opens the log in {@code dataDir}, replaying into H2 whatever the journal has that H2 lacks.
   * With {@code auditKey}, rows are sealed with it (from the first row written after the key
   * existed) and the chain head is also kept in {@code headPath}, outside the data folder; rows
   * found cut off the end since the last start are recorded in a row of their own.
   */
  public static AuditLog open(
      Path dataDir, Durability durability, byte @Nullable [] auditKey, @Nullable Path headPath)
      throws IOException {
    Files.createDirectories(dataDir);
    Path journalFile = Journal.fileIn(dataDir);
    AuditStore store;
    try {
      store = AuditStore.open(dataDir);
    } catch (SQLException e) {
      throw new IOException(
          "cannot open the audit database in " + dataDir + ": " + e.getMessage(), e);
    }
    try {
      ChainMark recovered = recover(store, Journal.read(journalFile));
      // H2 now holds everything up to `recovered` (if it is intact), so the journal restarts there.
      Journal journal = Journal.create(journalFile, recovered.seq(), recovered.hash());
      SealedHead head = auditKey != null && headPath != null
          ? SealedHead.open(auditKey, headPath, recovered, store)
          : SealedHead.none();
      // Whatever H2 lacks up to `recovered` is missing for good (verify reports it), so queries
      // never wait for those rows.
      AuditLog log = new AuditLog(
          store,
          openTextIndex(dataDir),
          journal,
          durability,
          recovered,
          head,
          new KeptArgs(dataDir.resolve("audit-args"), durability));
      log.loader.start();
      java.util.Optional<String> cut = head.problemAtStart();
      if (cut.isPresent()) {
        ChainMark before = log.acked;
        log.recordTampering(cut.get());
        // Only once the row recording the cut is in the chain may the head move back to it.
        if (log.acked.seq() > before.seq()) head.sealAfterRecordedCut(log.acked);
      } else {
        head.seal(log.acked);
      }
      return log;
    } catch (SQLException | RuntimeException e) {
      store.close();
      throw new IOException(
          "cannot recover the audit log in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /** Replays into H2 the journal's rows it lacks; answers the chain's last acknowledged row. */
  private static ChainMark recover(AuditStore store, Journal.Recovery rec) throws SQLException {
    long stored = store.maxSeq();
    List<ChainedRow> missing = rec.rows().stream().filter(r -> r.seq() > stored).toList();
    if (!missing.isEmpty()) {
      store.insert(missing);
      LOG.info("audit: replayed " + missing.size() + " journal rows into H2");
    }
    store.checkpoint();
    if (!rec.rows().isEmpty()) return ChainMark.of(rec.rows().get(rec.rows().size() - 1));
    if (rec.headSeq() > 0) return new ChainMark(rec.headSeq(), rec.headHash());
    // No journal yet (first start, or one from before the journal existed): trust H2's end.
    long max = store.maxSeq();
    return max == 0 ? ChainMark.START : ChainMark.of(store.row(max).orElseThrow());
  }

  private static @Nullable TextIndex openTextIndex(Path dataDir) {
    try {
      return TextIndex.open(dataDir);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "audit: no text index (text filters scan H2 instead)", e);
      return null;
    }
  }

  /**
   * Chains and seals {@code entries} as {@link #record} does, and makes each one's journal line and
   * bytes, but writes them nowhere and touches no log: the idle warm-up (issue 23) runs this beside
   * its calls so that a client's first calls find the code that seals their rows compiled. It must
   * stay free of I/O: the warm-up's thread is interrupted when a client's call comes, and an
   * interrupt in the middle of a channel's write closes the channel.
   */
  public static void rehearse(List<AuditEntry> entries) {
    String prev = ChainedRow.GENESIS;
    long seq = 1;
    for (AuditEntry entry : entries) {
      ChainedRow row = ChainedRow.chain(seq++, entry, prev, REHEARSAL_KEY);
      try {
        ChainedRow.scratch().utf8(row.journalLine());
      } catch (IOException e) {
        throw new UncheckedIOException(e); // a line made in memory
      }
      prev = row.rowHash();
    }
  }

  /** Appends a row and returns once it is durable (per {@link Durability}). */
  public ChainedRow record(AuditEntry entry) throws AuditUnavailableException {
    synchronized (appendLock) {
      if (!running)
        throw new AuditUnavailableException(
            "the audit log is closed", new IllegalStateException("closed"));
      ChainedRow row = ChainedRow.chain(last.seq() + 1, entry, last.hash(), head.key());
      try {
        journal.append(row);
        if (durability == Durability.SYNC) journal.force();
        else unforced = true;
      } catch (IOException e) {
        LOG.log(Level.SEVERE, "audit: cannot write the journal", e);
        throw new AuditUnavailableException(
            "the audit journal cannot be written: " + e.getMessage(), e);
      }
      last = ChainMark.of(row);
      acked = last;
      loader.add(row);
      maybeRotate();
      return row;
    }
  }

  /**
   * Keeps the whole arguments of a call whose row shows them cut, before that row is written;
   * returns their hash (what the row's preview ends with).
   */
  public String keepArgs(String whole) throws AuditUnavailableException {
    try {
      return kept.keep(whole);
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "audit: cannot keep a call's whole arguments", e);
      throw new AuditUnavailableException(
          "the whole arguments cannot be kept: " + e.getMessage(), e);
    }
  }

  /**
   * The whole arguments kept under {@code sha256}, checked against it; empty when none are.
   *
   * @throws IllegalArgumentException when {@code sha256} is not a hash
   * @throws AuditUnavailableException when they cannot be read or no longer match
   */
  public Optional<String> keptArgs(String sha256) throws AuditUnavailableException {
    try {
      return kept.read(sha256);
    } catch (IOException e) {
      throw new AuditUnavailableException(String.valueOf(e.getMessage()), e);
    }
  }

  /** Appends a row without making the caller wait for it to be loaded into H2. */
  public void recordQuietly(AuditEntry entry) {
    try {
      record(entry);
    } catch (AuditUnavailableException e) {
      LOG.log(Level.WARNING, "audit: a row was not recorded", e);
    }
  }

  private void recordTampering(String what) {
    LOG.severe("audit: " + what);
    recordQuietly(new AuditEntry(
        AuditKind.PROTOCOL,
        null,
        null,
        null,
        null,
        null,
        Decision.BLOCKED,
        what,
        null,
        Outcome.ERROR,
        TAMPERED,
        "the audit log was altered while the service was stopped",
        Instant.now(),
        Instant.now()));
  }

  public Audit.QueryResult query(Audit.QueryParams params, int limit)
      throws AuditUnavailableException {
    loader.awaitApplied(acked.seq());
    return queries.query(params, limit);
  }

  public Optional<ChainedRow> row(long seq) throws AuditUnavailableException {
    loader.awaitApplied(Math.min(seq, acked.seq()));
    try {
      return store.row(seq);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  /** Recomputes the whole chain (see {@link ChainVerifier}). */
  public Audit.VerifyResult verify() throws AuditUnavailableException {
    ChainMark acknowledged = acked;
    loader.awaitApplied(acknowledged.seq());
    try {
      return ChainVerifier.verify(store, head.key(), acknowledged, head.sealed(), kept::intact);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  /** Whether text filters are answered through the text index (it has caught up with H2). */
  public boolean textIndexReady() {
    return loader.textReady();
  }

  /** The newest acknowledged sequence number. */
  public long lastSeq() {
    return acked.seq();
  }

  /** Confirmed decision rows since {@code fromSeq}, to rebuild which token parts were used. */
  public List<ChainedRow> tokenUses(long fromSeq) throws AuditUnavailableException {
    loader.awaitApplied(acked.seq());
    try {
      return store.tokenUses(fromSeq);
    } catch (SQLException e) {
      throw AuditUnavailableException.reading(e);
    }
  }

  public TokenRecords tokenRecords() {
    return new StoredTokenRecords(store);
  }

  // ---- journal upkeep ------------------------------------------------------------------------

  /**
   * Bounds what an OS crash can lose in {@link Durability#PROCESS} mode (called by the loader).
   * The fsync runs outside the append lock — it takes milliseconds, and appends may go on while
   * it runs; rows appended meanwhile are simply covered by the next one.
   */
  private void syncJournalIfDue() {
    long now = System.nanoTime();
    synchronized (appendLock) {
      if (!unforced || now - lastForce < FSYNC_EVERY_NANOS) return;
      unforced = false;
      lastForce = now;
    }
    try {
      journal.force();
    } catch (java.nio.channels.ClosedChannelException e) {
      // rotated or closed meanwhile: rotation and close sync the journal themselves
    } catch (IOException e) {
      LOG.log(Level.WARNING, "audit: journal sync failed", e);
      synchronized (appendLock) {
        unforced = true;
      }
    }
  }

  /** Under the append lock: once H2 has checkpointed past the journal's head, the journal starts again there. */
  private void maybeRotate() {
    ChainMark cp = loader.checkpointed();
    if (journal.rowCount() < AuditLoader.CHECKPOINT_AFTER_ROWS || cp.seq() <= journalHead.seq())
      return;
    try {
      journal.rotate(cp.seq(), cp.hash());
      journalHead = cp;
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "audit: journal rotation failed; the old journal stays", e);
    }
  }

  @Override
  public void close() {
    ChainMark lastRow;
    synchronized (appendLock) {
      if (!running) return;
      running = false; // no row is appended after this
      lastRow = acked;
    }
    try {
      boolean allLoaded = loader.stop(lastRow.seq());
      store.checkpoint();
      // H2 has everything on disk now: the journal keeps only the chain head, so rows cut off
      // H2's end while the service is stopped are detected rather than silently replayed.
      synchronized (appendLock) {
        if (allLoaded) journal.rotate(lastRow.seq(), lastRow.hash());
        journal.force();
        journal.close();
      }
      if (allLoaded) head.seal(lastRow);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (SQLException | IOException e) {
      LOG.log(Level.WARNING, "audit: closing", e);
    } finally {
      store.close();
      closeTextIndex();
    }
  }

  private void closeTextIndex() {
    TextIndex index = textIndex;
    if (index == null) return;
    try {
      index.close();
    } catch (IOException e) {
      LOG.log(Level.FINE, "audit: closing the text index", e);
    }
  }
}
