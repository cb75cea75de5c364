package dev.steward.service.gate;

import dev.steward.protocol.tool.ToolResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Remembers the result of each {@code tool.execute} that carried an idempotency key, so a retry
 * (after a lost response, say) gets the first result and runs nothing again. A retry that arrives
 * while the first is still running waits for it.
 */
final class IdempotencyCache {

  private static final int MAX_KEYS = 50_000;

  record Entry(String tool, String argsHash, CompletableFuture<ToolResult> result) {}

  private final Map<String, Entry> entries =
      new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
          return size() > MAX_KEYS;
        }
      };

  /** The earlier entry for this key, or null after registering {@code fresh} as the first. */
  synchronized Entry claim(String key, Entry fresh) {
    Entry existing = entries.get(key);
    if (existing != null) return existing;
    entries.put(key, fresh);
    return null;
  }
}
