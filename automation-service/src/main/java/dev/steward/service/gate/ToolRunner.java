package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Step 6: runs a tool on the caller's thread (no hand-off on the hot path) under a watchdog that
 * interrupts it at its time limit; {@link #cancel} interrupts it on request. Tools check for
 * interruption in their loops, and file channels close when interrupted.
 */
final class ToolRunner implements AutoCloseable {

  private enum Stop { NONE, TIMEOUT, CANCEL }

  /** The call on its thread; an interrupt can only arrive while it runs. */
  private static final class Running {
    final Thread thread = Thread.currentThread();
    volatile Stop stop = Stop.NONE;
    private boolean done;

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

  private final ScheduledThreadPoolExecutor watchdog = newWatchdog();

  private static ScheduledThreadPoolExecutor newWatchdog() {
    ScheduledThreadPoolExecutor w =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "tool-watchdog");
              t.setDaemon(true);
              return t;
            });
    // Almost every timer is cancelled within milliseconds; without this the queue would hold
    // every cancelled 30 s timer until it was due — ~150,000 of them at 5,000 calls a second.
    w.setRemoveOnCancelPolicy(true);
    return w;
  }
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  JsonNode run(String callId, Tool tool, JsonNode args, ToolContext ctx) throws ToolFailure {
    Running me = new Running();
    Running previous = running.putIfAbsent(callId, me);
    ScheduledFuture<?> timer = watchdog.schedule(() -> me.interrupt(Stop.TIMEOUT), tool.timeLimit().toMillis(), TimeUnit.MILLISECONDS);
    try {
      JsonNode value = tool.run(args, ctx);
      if (me.stop != Stop.NONE && value == null) throw stopped(tool, me.stop);
      return value;
    } catch (ToolFailure f) {
      if (me.stop != Stop.NONE) throw stopped(tool, me.stop);
      throw f;
    } catch (RuntimeException e) {
      if (me.stop != Stop.NONE) throw stopped(tool, me.stop);
      throw new ToolFailure(ToolErrorCodes.INTERNAL, tool.name() + " failed unexpectedly (" + e.getClass().getSimpleName() + ")");
    } finally {
      timer.cancel(false);
      me.finish();
      if (previous == null) running.remove(callId, me);
    }
  }

  private static ToolFailure stopped(Tool tool, Stop why) {
    return why == Stop.TIMEOUT
        ? new ToolFailure(ToolErrorCodes.TIMEOUT, tool.name() + " did not finish within " + tool.timeLimit().toSeconds() + " s and was stopped")
        : new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
  }

  boolean cancel(String callId) {
    Running r = running.get(callId);
    return r != null && r.interrupt(Stop.CANCEL);
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }
}
