package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.protocol.util.EarlyCancels;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Step 6: runs a tool on the caller's thread (no hand-off on the hot path) under a watchdog that
 * interrupts it at its time limit; {@link #cancel} interrupts it on request. Tools check for
 * interruption in their loops, and file channels close when interrupted.
 *
 * <p>The watchdog looks over the running calls a few times a second rather than keeping a timer
 * per call: scheduling and cancelling a timer for every call woke its thread on every call, and
 * limits are seconds long. While no call runs it sleeps until one starts, so an idle service does
 * not wake ten times a second for it; a call wakes it only when it was asleep.
 */
final class ToolRunner implements AutoCloseable {

  static final long SWEEP_MILLIS = 100;

  private enum Stop {
    NONE,
    TIMEOUT,
    CANCEL
  }

  /** The call on its thread; an interrupt can only arrive while it runs. */
  private static final class Running {
    final Thread thread = Thread.currentThread();
    final long deadline;
    volatile Stop stop = Stop.NONE;
    private boolean done;

    Running(long deadline) {
      this.deadline = deadline;
    }

    synchronized boolean interrupt(Stop why) {
      if (done || stop != Stop.NONE) return false;
      stop = why;
      thread.interrupt();
      return true;
    }

    /** Called on the tool's thread: no interrupt after this, and a late one is cleared. */
    synchronized void finish() {
      done = true;
      Thread.interrupted();
    }
  }

  /** Every call that is running (by call id for {@link #cancel}; a reused id is still timed). */
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  private final Set<Running> active = ConcurrentHashMap.newKeySet();
  private final Object wake = new Object();
  /** Set by the watchdog before it checks for running calls and waits; a call that sees it wakes it. */
  private volatile boolean asleep;

  private final Thread watchdog = DaemonThreads.named("tool-watchdog").newThread(this::watch);

  private volatile Runnable onStart = () -> {};

  ToolRunner() {
    watchdog.start();
  }

  private void watch() {
    try {
      while (true) {
        synchronized (wake) {
          asleep = true;
          while (active.isEmpty()) wake.wait();
          asleep = false;
        }
        Thread.sleep(SWEEP_MILLIS);
        long now = System.nanoTime();
        for (Running r : active) {
          if (now - r.deadline >= 0) r.interrupt(Stop.TIMEOUT);
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  JsonNode run(String callId, Tool tool, JsonNode args, ToolContext ctx) throws ToolFailure {
    Running me = new Running(System.nanoTime() + tool.timeLimit().toNanos());
    Running previous = running.putIfAbsent(callId, me);
    active.add(me);
    if (asleep) {
      // The watchdog set `asleep` before looking at `active`: it either sees this call or is woken.
      synchronized (wake) {
        wake.notifyAll();
      }
    }
    try {
      onStart.run();
      // Asked after it is registered: a cancel from now on finds it running.
      if (early.take(scopeOf(callId), callId)) throw stopped(tool, Stop.CANCEL);
      JsonNode value = tool.run(args, ctx);
      if (me.stop != Stop.NONE && value == null) throw stopped(tool, me.stop);
      return value;
    } catch (ToolFailure f) {
      if (me.stop != Stop.NONE) throw stopped(tool, me.stop);
      throw f;
    } catch (RuntimeException e) {
      if (me.stop != Stop.NONE) throw stopped(tool, me.stop);
      throw new ToolFailure(
          ToolErrorCodes.INTERNAL,
          tool.name() + " failed unexpectedly (" + e.getClass().getSimpleName() + ")");
    } finally {
      active.remove(me);
      me.finish();
      if (previous == null) running.remove(callId, me);
    }
  }

  private static ToolFailure stopped(Tool tool, Stop why) {
    return why == Stop.TIMEOUT
        ? new ToolFailure(
            ToolErrorCodes.TIMEOUT,
            tool.name() + " did not finish within " + tool.timeLimit().toSeconds()
                + " s and was stopped")
        : new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
  }

  /** Told each time a call begins to run, after {@link #busy} counts it. */
  void onStart(Runnable listener) {
    onStart = listener;
  }

  /** Whether any call is running now. */
  boolean busy() {
    return !active.isEmpty();
  }

  boolean cancel(String callId) {
    Running r = running.get(callId);
    if (r != null) return r.interrupt(Stop.CANCEL);
    // Not begun: its cancel overtook it (sent on another thread, or while it was checked).
    String scope = scopeOf(callId);
    early.add(scope, callId);
    // It may have registered, and looked for an early cancel, between the first look and the add.
    Running late = running.get(callId);
    if (late != null && early.take(scope, callId)) return late.interrupt(Stop.CANCEL);
    return false;
  }

  /** Whether {@code callId} was cancelled before it began (and not long ago). */
  boolean cancelledEarly(String callId) {
    return early.has(scopeOf(callId), callId);
  }

  /** The client a call key belongs to: the connection before the key's first line break. */
  private static String scopeOf(String callKey) {
    int end = callKey.indexOf('\n');
    return end < 0 ? "" : callKey.substring(0, end);
  }

  /** Cancels of calls not begun, by call key: kept a minute, 32 a connection, 4,096 in all. */
  private final EarlyCancels early = new EarlyCancels(32, 4096, java.time.Duration.ofMinutes(1));

  @Override
  public void close() {
    watchdog.interrupt();
  }
}
