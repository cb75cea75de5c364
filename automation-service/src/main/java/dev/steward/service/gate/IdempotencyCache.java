package dev.steward.service.gate;

import dev.steward.protocol.tool.ToolResult;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Remembers the result of each {@code tool.execute} that carried an idempotency key, so a retry
 * (after a lost response, say) gets the first result and runs nothing again. A retry that arrives
 * while the first is still running waits for it.
 *
 * <p>Results are kept up to {@link #MAX_KEPT_BYTES} in all, the oldest dropped first: a client that
 * gave every call a fresh key would otherwise keep every listing it ever asked for. A key whose
 * result was dropped is still known, so a late retry is told so rather than run again.
 */
final class IdempotencyCache {

  private static final int MAX_KEYS = 50_000;
  /** Eight results of the largest size a result may have. */
  static final long MAX_KEPT_BYTES = 8L * dev.steward.service.tools.Tool.MAX_RESULT_BYTES;

  /** What a retry gets once the first result is no longer kept. */
  static final ToolResult FORGOTTEN = ToolResult.failure(
      dev.steward.protocol.tool.ToolError.of(
          dev.steward.protocol.tool.ToolErrorCodes.INTERNAL, "forgotten"),
      null);

  /** A key's first call: what it was, and its result while kept. */
  static final class Claim {
    final String tool;
    final String argsHash;
    private CompletableFuture<ToolResult> result;
    /** The kept result's size; 0 while running or once dropped. */
    private long bytes;
    /** Pushed out of the cache by newer keys. */
    private boolean gone;

    Claim(String tool, String argsHash, CompletableFuture<ToolResult> result) {
      this.tool = tool;
      this.argsHash = argsHash;
      this.result = result;
    }

    synchronized CompletableFuture<ToolResult> result() {
      return result;
    }
  }

  private final long budget;
  private long keptBytes;
  /** Entries with a kept result, oldest first (and some whose result went since, skipped when met). */
  private final ArrayDeque<Claim> kept = new ArrayDeque<>();

  private final Map<String, Claim> entries = new LinkedHashMap<>(1024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Claim> eldest) {
      if (size() <= MAX_KEYS) return false;
      eldest.getValue().gone = true;
      drop(eldest.getValue());
      return true;
    }
  };

  IdempotencyCache() {
    this(MAX_KEPT_BYTES);
  }

  /** Keeps results up to {@code budget} bytes in all. */
  IdempotencyCache(long budget) {
    this.budget = budget;
  }

  /** The earlier entry for this key, or null after registering {@code fresh} as the first. */
  synchronized @Nullable Claim claim(String key, Claim fresh) {
    Claim existing = entries.get(key);
    if (existing != null) return existing;
    entries.put(key, fresh);
    return null;
  }

  /** The first call of {@code entry} is done: its result is kept, and the oldest results go while over the budget. */
  synchronized void done(Claim entry, ToolResult result, long bytes) {
    entry.result().complete(result);
    if (entry.gone) return;
    entry.bytes = Math.max(1, bytes);
    keptBytes += entry.bytes;
    kept.addLast(entry);
    while (!kept.isEmpty()
        && (kept.peekFirst().bytes == 0 || keptBytes > budget && kept.peekFirst() != entry)) {
      drop(kept.pollFirst());
    }
  }

  /** Forgets a kept result (its key stays known). */
  private void drop(Claim e) {
    if (e.bytes == 0) return; // running, or dropped already
    keptBytes -= e.bytes;
    e.bytes = 0;
    synchronized (e) {
      e.result = CompletableFuture.completedFuture(FORGOTTEN);
    }
  }

  synchronized long keptBytes() {
    return keptBytes;
  }
}
