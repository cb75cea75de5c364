package dev.steward.service.audit;

import dev.steward.protocol.util.DaemonThreads;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The thread that copies acknowledged rows from the journal's order into H2 (and the text index),
 * in batches, and checkpoints H2 every few seconds under load. Readers wait here until H2 holds
 * the rows they must see, and fail — never answer stale rows — when it does not in time.
 */
final class AuditLoader {

  private static final Logger LOG = Logger.getLogger(AuditLoader.class.getName());
  private static final int MAX_BATCH = 1024;
  static final int CHECKPOINT_AFTER_ROWS = 20_000;
  private static final long CHECKPOINT_EVERY_NANOS = Duration.ofSeconds(10).toNanos();
  private static final long LOAD_DELAY_NANOS = Duration.ofMillis(100).toNanos();

  /** What the log does around the loader's work: sync the journal now and then, keep a checkpoint's head. */
  interface Upkeep {
    /** Whether the journal has rows not yet synced to the disk. */
    boolean journalUnsynced();

    void syncJournalIfDue();

    /** H2 holds every row up to {@code mark} on the disk. */
    void checkpointed(ChainMark mark);
  }

  /** Put on the queue by {@link #stop}, to wake a loader that waits for rows. */
  private static final ChainedRow STOP = new ChainedRow(
      -1,
      new AuditEntry(
          dev.steward.protocol.audit.AuditKind.PROTOCOL,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          java.time.Instant.EPOCH,
          null),
      ChainedRow.GENESIS,
      ChainedRow.GENESIS);

  private final AuditStore store;
  private final @Nullable TextIndex textIndex;
  private final Upkeep upkeep;
  private final Duration readerWait;
  private final BlockingQueue<ChainedRow> queue = new LinkedBlockingQueue<>();
  private final Object appliedMonitor = new Object();
  private final AtomicInteger waiters = new AtomicInteger();
  private final Thread thread;
  private volatile long applied;
  private volatile ChainMark checkpointed;
  private volatile boolean running = true;
  /** Whether the text index holds every row H2 holds (kept so once caught up). */
  private volatile boolean textReady;

  /** {@code recovered}: what H2 holds on the disk already when the log opens. */
  AuditLoader(
      AuditStore store,
      @Nullable TextIndex textIndex,
      Upkeep upkeep,
      ChainMark recovered,
      Duration readerWait) {
    this.store = store;
    this.textIndex = textIndex;
    this.upkeep = upkeep;
    this.readerWait = readerWait;
    this.applied = recovered.seq();
    this.checkpointed = recovered;
    this.thread = DaemonThreads.named("audit-loader").newThread(this::loop);
  }

  void start() {
    thread.start();
  }

  void add(ChainedRow row) {
    queue.add(row);
  }

  /** The newest row H2 holds on the disk. */
  ChainMark checkpointed() {
    return checkpointed;
  }

  long applied() {
    return applied;
  }

  boolean textReady() {
    return textReady;
  }

  /** Stops after the rows already queued; answers whether H2 then holds every one of them. */
  boolean stop(long lastQueued) throws InterruptedException {
    running = false;
    queue.add(STOP);
    LockSupport.unpark(thread);
    thread.join(10_000);
    return !thread.isAlive() && applied == lastQueued;
  }

  /** Waits until H2 holds row {@code seq}; a reader never gets rows older than what was acknowledged. */
  void awaitApplied(long seq) throws AuditUnavailableException {
    if (applied >= seq) return;
    long deadline = System.nanoTime() + readerWait.toNanos();
    waiters.incrementAndGet();
    LockSupport.unpark(thread); // it may be gathering a batch: the rows are wanted now
    try {
      synchronized (appliedMonitor) {
        while (applied < seq && System.nanoTime() < deadline) {
          try {
            appliedMonitor.wait(20);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditUnavailableException(
                "interrupted while waiting for the audit database", e);
          }
        }
      }
    } finally {
      waiters.decrementAndGet();
    }
    if (applied < seq) {
      throw new AuditUnavailableException(
          "the audit database is behind the log (row " + applied + " of " + seq + "); try again",
          new java.util.concurrent.TimeoutException("rows not applied within " + readerWait));
    }
  }

  private void loop() {
    catchUpTextIndex();
    List<ChainedRow> batch = new ArrayList<>(MAX_BATCH);
    long lastCheckpoint = System.nanoTime();
    long uncheckpointed = 0;
    ChainMark newest = checkpointed;
    while (running || !queue.isEmpty()) {
      try {
        // With rows to sync or checkpoint it looks in often; with nothing pending it waits for the
        // next row, so an idle service does not wake twenty times a second for its log.
        ChainedRow first = uncheckpointed > 0 || upkeep.journalUnsynced()
            ? queue.poll(50, TimeUnit.MILLISECONDS)
            : queue.take();
        if (first == STOP) continue;
        upkeep.syncJournalIfDue();
        if (first != null) {
          // Gather rows for a while: one H2 commit per batch costs far less than one per row,
          // and queries that need the rows now wake the loader early. The loader sleeps rather
          // than taking rows as they come: a queue that is never empty wakes no one, so a call's
          // append costs no thread wake-up.
          batch.add(first);
          long until = System.nanoTime() + LOAD_DELAY_NANOS;
          for (long left;
              (left = until - System.nanoTime()) > 0
                  && running
                  && waiters.get() == 0
                  && queue.size() < MAX_BATCH; ) {
            LockSupport.parkNanos(this, left);
          }
          queue.drainTo(batch, MAX_BATCH * 4);
          batch.removeIf(r -> r == STOP);
          insertWithRetry(batch);
          indexText(batch);
          newest = ChainMark.of(batch.get(batch.size() - 1));
          uncheckpointed += batch.size();
          batch.clear();
          synchronized (appliedMonitor) {
            applied = newest.seq();
            appliedMonitor.notifyAll();
          }
        }
        long now = System.nanoTime();
        if (uncheckpointed > 0
            && (now - lastCheckpoint > CHECKPOINT_EVERY_NANOS
                || uncheckpointed >= CHECKPOINT_AFTER_ROWS)) {
          store.checkpoint();
          checkpointed = newest;
          upkeep.checkpointed(newest);
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

  private void insertWithRetry(List<ChainedRow> batch) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try {
        store.insert(batch);
        return;
      } catch (SQLException e) {
        // The rows are safe in the journal; keep trying so H2 catches up (queries wait for it).
        if (attempt % 50 == 0)
          LOG.log(Level.SEVERE, "audit: cannot copy rows into H2; retrying", e);
        Thread.sleep(100);
        if (!running && attempt > 20) return;
      }
    }
  }
}
