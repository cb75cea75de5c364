package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolResult;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Results are kept up to a budget, oldest dropped first; a key whose result went is still known. */
class IdempotencyCacheTest {

  private static IdempotencyCache.Claim entry(String tool) {
    return new IdempotencyCache.Claim(tool, "hash", new CompletableFuture<>());
  }

  private static ToolResult result(int n) {
    return ToolResult.success(Json.object().put("n", n), null);
  }

  @Test
  void the_oldest_results_go_once_over_the_budget_and_their_keys_stay_known() throws Exception {
    IdempotencyCache cache = new IdempotencyCache(100);
    IdempotencyCache.Claim[] e = new IdempotencyCache.Claim[4];
    for (int i = 0; i < 4; i++) {
      e[i] = entry("t");
      assertNull(cache.claim("k" + i, e[i]));
      cache.done(e[i], result(i), 40);
    }
    // 4 × 40 > 100: the two oldest went, the two newest are kept
    assertEquals(80, cache.keptBytes());
    assertSame(
        IdempotencyCache.FORGOTTEN, cache.claim("k0", entry("t")).result().get());
    assertSame(
        IdempotencyCache.FORGOTTEN, cache.claim("k1", entry("t")).result().get());
    assertEquals(result(2), cache.claim("k2", entry("t")).result().get());
    assertEquals(result(3), cache.claim("k3", entry("t")).result().get());
  }

  @Test
  void a_call_still_running_is_never_dropped_and_the_newest_result_is_always_kept()
      throws Exception {
    IdempotencyCache cache = new IdempotencyCache(100);
    IdempotencyCache.Claim running = entry("t");
    assertNull(cache.claim("running", running));
    IdempotencyCache.Claim big = entry("t");
    assertNull(cache.claim("big", big));
    cache.done(big, result(1), 500); // alone over the budget: kept, it is the newest
    assertEquals(500, cache.keptBytes());
    assertFalse(running.result().isDone(), "the running call's waiters still wait for it");
    cache.done(running, result(2), 10);
    assertEquals(10, cache.keptBytes(), "the big one went for the newer result");
    assertEquals(result(2), cache.claim("running", entry("t")).result().get());
    assertSame(
        IdempotencyCache.FORGOTTEN, cache.claim("big", entry("t")).result().get());
  }

  @Test
  void keys_pushed_out_by_newer_ones_take_their_bytes_with_them() throws Exception {
    IdempotencyCache cache = new IdempotencyCache(Long.MAX_VALUE);
    for (int i = 0; i < 50_010; i++) {
      IdempotencyCache.Claim e = entry("t");
      assertNull(cache.claim("k" + i, e));
      cache.done(e, result(i), 10);
    }
    assertEquals(50_000L * 10, cache.keptBytes());
    assertTrue(cache.claim("k0", entry("t")) == null, "the oldest key is forgotten altogether");
  }
}
