package dev.steward.protocol.client;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * When the requests waiting for an answer time out, with one check scheduled for the earliest of
 * them rather than a timer task for each: a request answered in a millisecond, as most are,
 * schedules nothing, where a timer per request woke the timer's thread twice (to schedule it, to
 * drop it) on each call — on two cores, time taken from the call itself. The check runs on the
 * JDK's own timer thread, where {@code orTimeout} failed a late request, not on the client's
 * scheduler, whose reconnection may wait for a service to start.
 */
final class Deadlines {

  /** A request waiting, and its deadline ({@link System#nanoTime}). */
  private record Waiting(CompletableFuture<?> request, long deadline) {}

  /** The requests waiting, by request id. */
  private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();

  private final Object lock = new Object();
  /** Whether a check is scheduled, and for when. */
  private boolean scheduled;

  private long checkAt;

  /** Fails {@code request} with a {@link TimeoutException} unless it ends within {@code nanos}. */
  void watch(long id, CompletableFuture<?> request, long nanos) {
    long deadline = System.nanoTime() + nanos;
    waiting.put(id, new Waiting(request, deadline));
    request.whenComplete((r, e) -> waiting.remove(id));
    checkBy(deadline);
  }

  private void checkBy(long deadline) {
    synchronized (lock) {
      if (scheduled && checkAt - deadline <= 0) return;
      scheduled = true;
      checkAt = deadline;
    }
    CompletableFuture.delayedExecutor(
            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS, Runnable::run)
        .execute(() -> check(deadline));
  }

  private void check(long due) {
    synchronized (lock) {
      // A check overtaken by an earlier one leaves that one's place alone.
      if (checkAt == due) scheduled = false;
    }
    long now = System.nanoTime();
    long next = 0;
    boolean more = false;
    for (Waiting w : waiting.values()) {
      long deadline = w.deadline();
      if (deadline - now <= 0) {
        w.request().completeExceptionally(new TimeoutException());
      } else if (!more || deadline - next < 0) {
        next = deadline;
        more = true;
      }
    }
    if (more) checkBy(next);
  }
}
