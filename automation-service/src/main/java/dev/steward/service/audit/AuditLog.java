package dev.steward.service.audit;

import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The append-only, hash-chained audit log (SPEC §7).
 *
 * <p>Appending gives a row its sequence number and chain hash and writes it to the {@link Journal}
 * under one lock, on the caller's thread (a small {@code write}, no thread hand-off); a row is
 * acknowledged once it is written there. A loader thread then copies rows into H2 in batches,
 * which serves queries and verification; after H2 checkpoints, the journal is rotated. Every
 * acknowledged row survives a crash of the service at any point.
 */
public final class AuditLog implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());
  private static final int MAX_BATCH = 1024;
  private static final int ROTATE_AFTER_ROWS = 20_000;
  private static final long FSYNC_EVERY_NANOS = Duration.ofMillis(200).toNanos();
  private static final long CHECKPOINT_EVERY_NANOS = Duration.ofSeconds(10).toNanos();
  private static final long LOAD_DELAY_NANOS = Duration.ofMillis(100).toNanos();

  private record Mark(long seq, String hash) {}

  /** Put on the loader's queue by {@link #close}, to wake a loader that waits for rows. */
  private static final ChainedRow CLOSING = new ChainedRow(-1,
      new AuditEntry(dev.steward.protocol.audit.AuditKind.PROTOCOL, null, null, null, null, null, null, null, null, null, null, null,
          java.time.Instant.EPOCH, null),
      ChainedRow.GENESIS, ChainedRow.GENESIS);

  private final AuditStore store;
  private final Journal journal;
  private final Durability durability;
  private final Object appendLock = new Object();
  private final BlockingQueue<ChainedRow> toLoad = new LinkedBlockingQueue<>();
  private final Object appliedMonitor = new Object();
  private final java.util.concurrent.atomic.AtomicInteger waiters = new java.util.concurrent.atomic.AtomicInteger();
  private final Thread loader;
  private final @org.jspecify.annotations.Nullable TextIndex textIndex;
  private final ChainKey key;
  private final @org.jspecify.annotations.Nullable ChainHeadFile headFile;
  /** The head last written outside the data folder: the log must reach it, with this hash. */
  private volatile Mark sealedHead;
  /** Whether the text index holds every row H2 holds (the loader keeps it so once caught up). */
  private volatile boolean textReady;

  // guarded by appendLock
  private long lastSeq;
  private String lastHash;
  private Mark journalHead;
  private long lastForce = System.nanoTime();
  private boolean unforced;

  private volatile Mark acked;
  private volatile Mark checkpointed;
  private volatile long applied;
  private volatile boolean running = true;

  private AuditLog(AuditStore store, @org.jspecify.annotations.Nullable TextIndex textIndex, Journal journal, Durability durability,
      Mark head, Mark last, long applied, ChainKey key, @org.jspecify.annotations.Nullable ChainHeadFile headFile, Mark sealedHead) {
    this.store = store;
    this.key = key;
    this.headFile = headFile;
    this.sealedHead = sealedHead;
    this.textIndex = textIndex;
    this.journal = journal;
    this.durability = durability;
    this.journalHead = head;
    this.lastSeq = last.seq();
    this.lastHash = last.hash();
    this.acked = last;
    this.checkpointed = head;
    this.applied = applied;
    this.loader = new Thread(this::loadLoop, "audit-loader");
    loader.setDaemon(true);
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
  public static AuditLog open(Path dataDir, Durability durability, byte @org.jspecify.annotations.Nullable [] auditKey,
      @org.jspecify.annotations.Nullable Path headPath) throws IOException {
    Files.createDirectories(dataDir);
    Path journalFile = Journal.fileIn(dataDir);
    AuditStore store;
    try {
      store = AuditStore.open(dataDir);
    } catch (SQLException e) {
      throw new IOException("cannot open the audit database in " + dataDir + ": " + e.getMessage(), e);
    }
    try {
      Journal.Recovery rec = Journal.read(journalFile);
      long stored = store.maxSeq();
      List<ChainedRow> missing = rec.rows().stream().filter(r -> r.seq() > stored).toList();
      if (!missing.isEmpty()) {
        store.insert(missing);
        LOG.info("audit: replayed " + missing.size() + " journal rows into H2");
      }
      store.checkpoint();
      Mark last;
      if (!rec.rows().isEmpty()) {
        ChainedRow newest = rec.rows().get(rec.rows().size() - 1);
        last = new Mark(newest.seq(), newest.rowHash());
      } else if (rec.headSeq() > 0) {
        last = new Mark(rec.headSeq(), rec.headHash());
      } else {
        // No journal yet (first start, or one from before the journal existed): trust H2's end.
        long max = store.maxSeq();
        last = max == 0 ? new Mark(0, ChainedRow.GENESIS) : new Mark(max, store.row(max).orElseThrow().rowHash());
      }
      // H2 now holds everything up to `last` (if it is intact), so the journal restarts there.
      Journal journal = Journal.create(journalFile, last.seq(), last.hash());
      ChainKey key = ChainKey.none();
      ChainHeadFile headFile = null;
      Mark sealed = new Mark(0, ChainedRow.GENESIS);
      String cut = null;
      if (auditKey != null && headPath != null) {
        headFile = new ChainHeadFile(headPath, auditKey);
        Optional<ChainHeadFile.Head> kept = headFile.read();
        key = new ChainKey(auditKey, kept.map(ChainHeadFile.Head::keyedFrom).orElse(last.seq() + 1));
        if (kept.isPresent()) {
          sealed = new Mark(kept.get().seq(), kept.get().hash());
          if (!kept.get().sealed()) cut = "the chain head kept in " + headPath + " was altered";
          else if (last.seq() < kept.get().seq()) cut = "rows " + (last.seq() + 1) + " to " + kept.get().seq() + " were cut off the log while the service was stopped";
          else if (store.row(kept.get().seq()).map(r -> !r.rowHash().equals(kept.get().hash())).orElse(false)) {
            cut = "row " + kept.get().seq() + " is not the row the chain head kept outside the data folder names";
          }
        }
      }
      // Recovery is done: whatever H2 lacks up to `last` is missing for good (verify reports it),
      // so queries never wait for those rows.
      AuditLog log = new AuditLog(store, openTextIndex(dataDir), journal, durability, last, last, last.seq(), key, headFile, sealed);
      log.loader.start();
      if (cut != null) log.recordTampering(cut);
      log.sealHead(log.acked);
      return log;
    } catch (SQLException | RuntimeException e) {
      store.close();
      throw new IOException("cannot recover the audit log in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  private static @org.jspecify.annotations.Nullable TextIndex openTextIndex(Path dataDir) {
    try {
      return TextIndex.open(dataDir);
    } catch (IOException e) {
      LOG.log(Level.WARNING, "audit: no text index (text filters scan H2 instead)", e);
      return null;
    }
  }

  /** Appends a row and returns once it is durable (per {@link Durability}). */
  public ChainedRow record(AuditEntry entry) throws AuditUnavailableException {
    synchronized (appendLock) {
      if (!running) throw new AuditUnavailableException("the audit log is closed", new IllegalStateException("closed"));
      ChainedRow row = ChainedRow.chain(lastSeq + 1, entry, lastHash, key);
      try {
        journal.append(row);
        if (durability == Durability.SYNC) journal.force();
        else unforced = true;
      } catch (IOException e) {
        LOG.log(Level.SEVERE, "audit: cannot write the journal", e);
        throw new AuditUnavailableException("the audit journal cannot be written: " + e.getMessage(), e);
      }
      lastSeq = row.seq();
      lastHash = row.rowHash();
      acked = new Mark(row.seq(), row.rowHash());
      toLoad.add(row);
      maybeRotate();
      return row;
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

  public Audit.QueryResult query(Audit.QueryParams params, int limit) throws AuditUnavailableException {
    awaitApplied(acked.seq());
    byte[] needle = params.text() == null || params.text().isBlank() ? null : TextIndex.needle(params.text());
    TextIndex index = textIndex;
    if (needle != null && index != null && textReady) {
      try {
        return queryIndexed(index, needle, params, limit);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "audit: the text index cannot be read; scanning H2", e);
      }
    }
    return sql(() -> store.query(params, limit));
  }

  /** A text filter through the text index: H2 reads only the rows it names. */
  private Audit.QueryResult queryIndexed(TextIndex index, byte[] needle, Audit.QueryParams params, int limit)
      throws IOException, AuditUnavailableException {
    long below = params.cursor() == null ? Long.MAX_VALUE : AuditStore.cursorSeq(params.cursor());
    List<Audit.Row> rows = new ArrayList<>();
    SQLException[] failed = {null};
    index.search(needle, below, (seqs, count) -> {
      try {
        // In slices about the size still wanted: the rows found nearly always pass the filters.
        for (int from = 0; from < count && rows.size() <= limit; ) {
          int wanted = limit + 1 - rows.size();
          int to = Math.min(count, from + Math.max(wanted, 64));
          rows.addAll(store.queryAmong(params, seqs, from, to, wanted));
          from = to;
        }
      } catch (SQLException e) {
        failed[0] = e;
        return false;
      }
      return rows.size() <= limit;
    });
    if (failed[0] != null) throw new AuditUnavailableException("the audit database cannot be read: " + failed[0].getMessage(), failed[0]);
    String next = null;
    if (rows.size() > limit) {
      rows.subList(limit, rows.size()).clear();
      next = rows.get(rows.size() - 1).auditId();
    }
    return new Audit.QueryResult(rows, next);
  }

  public Optional<ChainedRow> row(long seq) throws AuditUnavailableException {
    awaitApplied(Math.min(seq, acked.seq()));
    return sql(() -> store.row(seq));
  }

  private interface Sql<T> {
    T run() throws SQLException;
  }

  private interface SqlDo {
    void run() throws SQLException;
  }

  private static void sqlDo(SqlDo work) throws AuditUnavailableException {
    sql(() -> {
      work.run();
      return Boolean.TRUE;
    });
  }

  /** The one place an SQL failure becomes the log's own exception. */
  private static <T> T sql(Sql<T> work) throws AuditUnavailableException {
    try {
      return work.run();
    } catch (SQLException e) {
      throw new AuditUnavailableException("the audit database cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * Recomputes the whole chain. The first row whose hash or link does not hold is named; rows cut
   * off the end are found by comparing with the newest hash kept outside H2.
   */
  public Audit.VerifyResult verify() throws AuditUnavailableException {
    Mark head = acked;
    Mark sealed = sealedHead;
    awaitApplied(head.seq());
    long[] count = {0};
    long[] expectedSeq = {1};
    String[] prev = {ChainedRow.GENESIS};
    @org.jspecify.annotations.Nullable String[] bad = {null, null};
    sqlDo(() -> {
      store.scan(
        row -> {
          if (bad[0] != null) return;
          count[0]++;
          if (row.seq() != expectedSeq[0]) {
            bad[0] = Long.toString(Math.min(row.seq(), expectedSeq[0]));
            bad[1] = "row " + expectedSeq[0] + " is missing or out of order";
          } else if (!row.prevHash().equals(prev[0])) {
            bad[0] = Long.toString(row.seq());
            bad[1] = "row " + row.seq() + " does not link to the row before it";
          } else if (!row.hashMatches(key)) {
            bad[0] = Long.toString(row.seq());
            bad[1] = "row " + row.seq() + " was changed after it was written";
          } else if (TAMPERED.equals(row.entry().errorCode())) {
            bad[0] = Long.toString(row.seq());
            bad[1] = row.entry().reason();
          } else if (row.seq() == sealed.seq() && !row.rowHash().equals(sealed.hash())) {
            bad[0] = Long.toString(row.seq());
            bad[1] = "row " + row.seq() + " is not the row the chain head kept outside the data folder names";
          }
          prev[0] = row.rowHash();
          expectedSeq[0] = row.seq() + 1;
        });
    });
    if (bad[0] != null) {
      return new Audit.VerifyResult(false, count[0], bad[0], bad[1]);
    }
    long last = expectedSeq[0] - 1;
    if (last < sealed.seq()) {
      return new Audit.VerifyResult(
          false, count[0], Long.toString(last + 1), "rows after " + last + " were cut off (the chain head kept outside the data folder names row " + sealed.seq() + ")");
    }
    if (last < head.seq()) {
      return new Audit.VerifyResult(
          false, count[0], Long.toString(last + 1), "rows after " + last + " were cut off (the log had " + head.seq() + ")");
    }
    if (last == head.seq() && !prev[0].equals(head.hash())) {
      return new Audit.VerifyResult(false, count[0], Long.toString(last), "the newest row does not match the chain head");
    }
    return new Audit.VerifyResult(true, count[0], null, null);
  }

  /** The error code of the row that records rows found cut off the log at a start. */
  static final String TAMPERED = "AUDIT_TAMPERED";

  private void recordTampering(String what) {
    LOG.severe("audit: " + what);
    recordQuietly(new AuditEntry(dev.steward.protocol.audit.AuditKind.PROTOCOL, null, null, null, null, null,
        dev.steward.protocol.audit.Decision.BLOCKED, what, null, dev.steward.protocol.audit.Outcome.ERROR, TAMPERED,
        "the audit log was altered while the service was stopped", java.time.Instant.now(), java.time.Instant.now()));
  }

  /** Keeps {@code head} outside the data folder, unless it is behind what is kept there already. */
  private void sealHead(Mark head) {
    ChainHeadFile file = headFile;
    if (file == null || head.seq() < sealedHead.seq()) return;
    try {
      file.write(key.keyedFrom(), head.seq(), head.hash());
      sealedHead = head;
    } catch (IOException e) {
      LOG.log(Level.WARNING, "audit: cannot keep the chain head outside the data folder", e);
    }
  }

  /** Whether text filters are answered through the text index (it has caught up with H2). */
  public boolean textIndexReady() {
    return textReady;
  }

  /** The newest acknowledged sequence number. */
  public long lastSeq() {
    return acked.seq();
  }

  /** Confirmed decision rows since {@code fromSeq}, to rebuild which token parts were used. */
  public List<ChainedRow> tokenUses(long fromSeq) throws AuditUnavailableException {
    awaitApplied(acked.seq());
    return sql(() -> store.tokenUses(fromSeq));
  }

  public TokenRecords tokenRecords() {
    return new TokenRecords() {
      @Override
      public void save(String tokenId, String record, long expiresAtMicros) throws AuditUnavailableException {
        sqlDo(() -> store.saveToken(tokenId, record, expiresAtMicros));
      }

      @Override
      public void delete(String tokenId) throws AuditUnavailableException {
        sqlDo(() -> store.deleteToken(tokenId));
      }

      @Override
      public List<String> live(long nowMicros) throws AuditUnavailableException {
        return sql(() -> store.liveTokens(nowMicros));
      }
    };
  }

  // ---- journal upkeep (under appendLock) ---------------------------------------------------

  private boolean unforced() {
    synchronized (appendLock) {
      return unforced;
    }
  }

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

  private void maybeRotate() {
    Mark cp = checkpointed;
    if (journal.rowCount() < ROTATE_AFTER_ROWS || cp.seq() <= journalHead.seq()) return;
    try {
      journal.rotate(cp.seq(), cp.hash());
      journalHead = cp;
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "audit: journal rotation failed; the old journal stays", e);
    }
  }

  // ---- loader ------------------------------------------------------------------------------

  private void loadLoop() {
    catchUpTextIndex();
    List<ChainedRow> batch = new ArrayList<>(MAX_BATCH);
    long lastCheckpoint = System.nanoTime();
    long uncheckpointed = 0;
    Mark newest = checkpointed;
    while (running || !toLoad.isEmpty()) {
      try {
        // With rows to sync or checkpoint it looks in often; with nothing pending it waits for the
        // next row, so an idle service does not wake twenty times a second for its log.
        ChainedRow first = uncheckpointed > 0 || unforced() ? toLoad.poll(50, TimeUnit.MILLISECONDS) : toLoad.take();
        if (first == CLOSING) continue;
        syncJournalIfDue();
        if (first != null) {
          // Gather rows for a while: one H2 commit per batch costs far less than one per row,
          // and queries that need the rows now wake the loader early. The loader sleeps rather
          // than taking rows as they come: a queue that is never empty wakes no one, so a call's
          // append costs no thread wake-up (on two cores that wake-up competed with the call).
          batch.add(first);
          long until = System.nanoTime() + LOAD_DELAY_NANOS;
          for (long left; (left = until - System.nanoTime()) > 0 && running && !queryWaiting() && toLoad.size() < MAX_BATCH; ) {
            LockSupport.parkNanos(this, left);
          }
          toLoad.drainTo(batch, MAX_BATCH * 4);
          batch.removeIf(r -> r == CLOSING);
          insertWithRetry(batch);
          indexText(batch);
          ChainedRow last = batch.get(batch.size() - 1);
          newest = new Mark(last.seq(), last.rowHash());
          uncheckpointed += batch.size();
          batch.clear();
          synchronized (appliedMonitor) {
            applied = newest.seq();
            appliedMonitor.notifyAll();
          }
        }
        long now = System.nanoTime();
        if (uncheckpointed > 0 && (now - lastCheckpoint > CHECKPOINT_EVERY_NANOS || uncheckpointed >= ROTATE_AFTER_ROWS)) {
          store.checkpoint();
          checkpointed = newest;
          sealHead(newest);
          uncheckpointed = 0;
          lastCheckpoint = now;
        }
      } catch (InterruptedException e) {
        if (!running) break;
      } catch (SQLException e) {
        LOG.log(Level.SEVERE, "audit: H2 checkpoint failed; the journal keeps the rows", e);
      }
    }
  }

  /** Brings the text index up to H2 (the loader's first job): a file from before a crash, or none. */
  private void catchUpTextIndex() {
    TextIndex index = textIndex;
    if (index == null) return;
    try {
      long stored = store.maxSeq();
      if (index.lastSeq() > stored) index.reset(); // it claims rows H2 lacks: not this log's index
      if (index.lastSeq() < stored) {
        long from = index.lastSeq() + 1;
        store.scanFrom(from, 5000, index::append);
        LOG.info("audit: text index completed from row " + from + " to " + stored);
      }
      textReady = true;
    } catch (SQLException | IOException e) {
      LOG.log(Level.WARNING, "audit: the text index cannot be completed; text filters scan H2", e);
    }
  }

  private void indexText(List<ChainedRow> batch) {
    TextIndex index = textIndex;
    if (index == null || !textReady) return;
    try {
      index.append(batch);
    } catch (IOException e) {
      textReady = false; // a gap would hide rows from searches: H2 answers them from now on
      LOG.log(Level.WARNING, "audit: the text index cannot be written; text filters scan H2", e);
    }
  }

  private boolean queryWaiting() {
    return waiters.get() > 0;
  }

  private void insertWithRetry(List<ChainedRow> batch) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try {
        store.insert(batch);
        return;
      } catch (SQLException e) {
        // The rows are safe in the journal; keep trying so H2 catches up (queries wait for it).
        if (attempt % 50 == 0) LOG.log(Level.SEVERE, "audit: cannot copy rows into H2; retrying", e);
        Thread.sleep(100);
        if (!running && attempt > 20) return;
      }
    }
  }

  /** Waits until H2 holds row {@code seq}; a reader never gets rows older than what was acknowledged. */
  private void awaitApplied(long seq) throws AuditUnavailableException {
    if (applied >= seq) return;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    waiters.incrementAndGet();
    LockSupport.unpark(loader); // it may be gathering a batch: the rows are wanted now
    try {
      synchronized (appliedMonitor) {
        while (applied < seq && System.nanoTime() < deadline) {
          try {
            appliedMonitor.wait(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditUnavailableException("interrupted while waiting for the audit database", e);
          }
        }
      }
    } finally {
      waiters.decrementAndGet();
    }
    if (applied < seq) {
      throw new AuditUnavailableException("the audit database is behind the log (row " + applied + " of " + seq + "); try again",
          new java.util.concurrent.TimeoutException("rows not applied within 30 s"));
    }
  }

  @Override
  public void close() {
    synchronized (appendLock) {
      if (!running) return;
      running = false;
      toLoad.add(CLOSING); // after the last row: no row is appended once `running` is false
    }
    LockSupport.unpark(loader);
    try {
      loader.join(10_000);
      store.checkpoint();
      // H2 has everything on disk now: the journal keeps only the chain head, so rows cut off
      // H2's end while the service is stopped are detected rather than silently replayed.
      Mark last = acked;
      synchronized (appendLock) {
        if (!loader.isAlive() && applied == last.seq()) {
          journal.rotate(last.seq(), last.hash());
        }
        journal.force();
        journal.close();
      }
      if (!loader.isAlive() && applied == last.seq()) sealHead(last);
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
    if (textIndex == null) return;
    try {
      textIndex.close();
    } catch (IOException e) {
      LOG.log(Level.FINE, "audit: closing the text index", e);
    }
  }
}
