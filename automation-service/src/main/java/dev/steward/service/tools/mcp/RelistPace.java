package dev.steward.service.tools.mcp;

import java.util.concurrent.TimeUnit;

/**
 * How long to wait before listing a server's tools again after it says they changed: half a
 * second, twice as long each time it says so again within ten seconds of the last listing, up to
 * half a minute. Each listing reads the server's whole description (up to 500 tools), and the
 * window reads it again: a server that never stops changing is listed seldom, not without end.
 */
final class RelistPace {

  static final long FIRST_MS = 500;
  static final long LONGEST_MS = 30_000;
  private static final long RESTLESS_NANOS = TimeUnit.SECONDS.toNanos(10);

  private long listedAt;
  private boolean listed;
  private long waitMs = FIRST_MS;

  /** The wait before the listing asked for at {@code now} (nanoTime). */
  synchronized long next(long now) {
    boolean restless = listed && now - listedAt < RESTLESS_NANOS;
    waitMs = restless ? Math.min(waitMs * 2, LONGEST_MS) : FIRST_MS;
    return waitMs;
  }

  /** A listing ended at {@code now}. */
  synchronized void listed(long now) {
    listedAt = now;
    listed = true;
  }
}
