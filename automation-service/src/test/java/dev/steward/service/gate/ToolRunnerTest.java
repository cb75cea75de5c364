package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The watchdog stops a call at its time limit, and only then; cancel stops the call it names. */
class ToolRunnerTest {

  private final ToolRunner runner = new ToolRunner();

  @AfterEach
  void close() {
    runner.close();
  }

  /** Sleeps for {@code sleepMs} (interruptibly) under a limit of {@code limitMs}. */
  private static final class Sleeper extends BaseTool {
    private final long sleepMs;
    private final Duration limit;

    Sleeper(long sleepMs, long limitMs) {
      super(new ToolDefinition(
          "test.sleep",
          "sleeps",
          Json.object(),
          Json.object(),
          Risk.LOW,
          Confirmation.NEVER,
          List.of()));
      this.sleepMs = sleepMs;
      this.limit = Duration.ofMillis(limitMs);
    }

    @Override
    public Duration timeLimit() {
      return limit;
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      try {
        Thread.sleep(sleepMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ToolContext.checkCancelled();
      }
      return Json.object().put("slept", sleepMs);
    }
  }

  private JsonNode run(String callId, Sleeper tool) throws ToolFailure {
    return runner.run(callId, tool, Json.object(), null);
  }

  @Test
  void a_call_over_its_limit_is_stopped_soon_after_it() {
    long t0 = System.nanoTime();
    ToolFailure f = assertThrows(ToolFailure.class, () -> run("c1", new Sleeper(10_000, 300)));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(ToolErrorCodes.TIMEOUT, f.error().code());
    assertTrue(ms >= 300 && ms < 300 + 5 * ToolRunner.SWEEP_MILLIS, ms + " ms");
    assertTrue(
        !Thread.currentThread().isInterrupted(), "the caller's thread is not left interrupted");
  }

  @Test
  void a_call_within_its_limit_runs_to_the_end() throws Exception {
    assertEquals(250, run("c2", new Sleeper(250, 2_000)).get("slept").asLong());
  }

  @Test
  void cancel_stops_the_named_call() throws Exception {
    CompletableFuture<ToolFailure> failure = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        run("c3", new Sleeper(10_000, 30_000));
        failure.complete(null);
      } catch (ToolFailure f) {
        failure.complete(f);
      }
    });
    t.start();
    // A cancel that comes before the call begins is kept, and stops it as it begins.
    while (!runner.cancel("c3") && !failure.isDone()) Thread.sleep(5);
    assertEquals(
        ToolErrorCodes.CANCELLED, failure.get(5, TimeUnit.SECONDS).error().code());
  }

  @Test
  void a_cancel_that_overtakes_its_call_stops_it_as_it_begins() throws Exception {
    assertFalse(runner.cancel("c6"), "nothing runs yet");
    assertTrue(runner.cancelledEarly("c6"));
    ToolFailure f = assertThrows(ToolFailure.class, () -> run("c6", new Sleeper(10, 2_000)));
    assertEquals(ToolErrorCodes.CANCELLED, f.error().code());
    assertEquals(10, run("c6", new Sleeper(10, 2_000)).get("slept").asLong(), "kept once only");
  }

  @Test
  void a_connection_that_cancels_calls_it_never_makes_displaces_only_its_own() {
    for (int i = 0; i < 10_000; i++) runner.cancel("flood\ncall-" + i);
    assertFalse(runner.cancel("honest\nc7"));
    ToolFailure f =
        assertThrows(ToolFailure.class, () -> run("honest\nc7", new Sleeper(10, 2_000)));
    assertEquals(ToolErrorCodes.CANCELLED, f.error().code());
    assertTrue(runner.cancelledEarly("flood\ncall-9999"), "the flood keeps its newest");
    assertFalse(runner.cancelledEarly("flood\ncall-0"));
  }

  @Test
  void a_call_after_a_quiet_spell_is_still_stopped_at_its_limit() throws Exception {
    assertEquals(20, run("c4", new Sleeper(20, 2_000)).get("slept").asLong());
    Thread.sleep(3 * ToolRunner.SWEEP_MILLIS); // the watchdog has nothing to watch and sleeps
    long t0 = System.nanoTime();
    ToolFailure f = assertThrows(ToolFailure.class, () -> run("c5", new Sleeper(10_000, 200)));
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(ToolErrorCodes.TIMEOUT, f.error().code());
    assertTrue(ms >= 200 && ms < 200 + 5 * ToolRunner.SWEEP_MILLIS, ms + " ms");
  }
}
