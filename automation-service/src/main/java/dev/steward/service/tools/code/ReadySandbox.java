package dev.steward.service.tools.code;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One sandbox started ahead for the next run, made in the background after each run (and when
 * runs are turned on), so that a run does not wait for namespaces, mounts and cgroups. A sandbox
 * serves one run only; one made for another workspace or network setting is stopped, not used.
 */
final class ReadySandbox implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(ReadySandbox.class.getName());

  static final long AFTER_RUN_MS = 30;
  private final Path runs;
  private final java.util.concurrent.ScheduledExecutorService starter =
      Executors.newSingleThreadScheduledExecutor(
          dev.steward.protocol.util.DaemonThreads.named("code-sandbox-ahead"));
  private Sandbox.@Nullable Prepared ready;
  private boolean closed;
  /** A sandbox is being made: a second request meanwhile would only make one to throw away. */
  private boolean pending;
  /** Counts drops: a sandbox being made when runs were turned off is stopped, not kept. */
  private long generation;

  ReadySandbox(Path runs) {
    this.runs = runs;
    Sandbox.clearRuns(runs);
  }

  /** The sandbox made ahead for {@code setup}, or one started now. */
  Sandbox.Prepared take(Sandbox.Setup setup) throws IOException {
    Sandbox.Prepared mine;
    synchronized (this) {
      mine = ready;
      ready = null;
    }
    if (mine != null && mine.setup.equals(setup) && mine.alive()) return mine;
    if (mine != null) mine.close();
    return Sandbox.prepare(setup, runs);
  }

  /** Starts the next run's sandbox in the background (replacing one made for another setup). */
  void prepareNext(Sandbox.Setup setup) {
    long made;
    synchronized (this) {
      if (closed || pending || (ready != null && ready.setup.equals(setup))) return;
      pending = true;
      made = generation;
    }
    try {
      starter.schedule(
          () -> makeAhead(setup, made), AFTER_RUN_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      synchronized (this) {
        pending = false; // closed meanwhile
      }
    }
  }

  private void makeAhead(Sandbox.Setup setup, long asOf) {
    Sandbox.Prepared made;
    try {
      made = Sandbox.prepare(setup, runs);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "no sandbox made ahead; the next run starts its own", e);
      synchronized (this) {
        pending = false;
      }
      return;
    }
    Sandbox.Prepared old;
    synchronized (this) {
      pending = false;
      if (closed || generation != asOf) {
        old = made;
      } else {
        old = ready;
        ready = made;
      }
    }
    if (old != null) old.close();
  }

  /** Stops the sandbox made ahead, if any (runs were turned off, or their setting changed). */
  void drop() {
    Sandbox.Prepared old;
    synchronized (this) {
      generation++;
      old = ready;
      ready = null;
    }
    if (old != null) old.close();
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    starter.shutdownNow();
    drop();
  }
}
