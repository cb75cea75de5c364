package dev.steward.service.transport;

import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A connection's refusals for its limits (its message rate, its calls in flight), for the audit
 * log, which keeps protocol refusals too (SPEC §7): a flood of them must not become a flood of rows,
 * and none may go unsaid. The first is written at once; those after it are counted and written as
 * one row at most every {@link #EVERY_NANOS}, and what is left when the connection closes.
 */
final class RefusalTally {

  static final long EVERY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);

  /** Writes one row: the error's code and what it says. */
  private final BiConsumer<Integer, String> write;

  private boolean written;
  private long lastWritten;
  private int pending;
  private int code;
  private @Nullable String message;

  RefusalTally(BiConsumer<Integer, String> write) {
    this.write = write;
  }

  /** {@code count} messages refused now with {@code code}, saying {@code message}. */
  synchronized void refused(int code, String message, int count, long now) {
    if (pending > 0 && code != this.code) flush(now);
    pending += count;
    this.code = code;
    this.message = message;
    if (!written || now - lastWritten >= EVERY_NANOS) flush(now);
  }

  /** Writes what is counted and not yet written. */
  synchronized void flush(long now) {
    String said = message;
    if (pending == 0 || said == null) return;
    write.accept(code, said + (pending > 1 ? " (" + pending + " messages refused)" : ""));
    pending = 0;
    written = true;
    lastWritten = now;
  }
}
