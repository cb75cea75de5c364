package dev.steward.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import dev.steward.service.tools.ToolRegistry;
import dev.steward.service.tools.WarmupCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The idle warm-up's rules: its own folder only, nothing that changes anything, never beside a client's call. */
class WarmupTest {

  @TempDir
  Path dir;

  /** A reading tool that records the paths it was given. */
  private static class Reader implements Tool {
    final List<Path> read = new CopyOnWriteArrayList<>();
    final String name;
    final boolean mutates;

    Reader(String name, boolean mutates) {
      this.name = name;
      this.mutates = mutates;
    }

    @Override
    public ToolDefinition definition() {
      JsonNode schema = Json.object()
          .put("type", "object")
          .set("properties", Json.object().set("path", Json.object().put("type", "string")));
      return new ToolDefinition(
          name,
          "test",
          schema,
          Json.object().put("type", "object"),
          Risk.LOW,
          Confirmation.NEVER,
          List.of(ScopeKind.PATHS),
          mutates,
          false,
          false);
    }

    @Override
    public List<PathUse> paths(JsonNode args) {
      return List.of(new PathUse("/path", args.get("path").asText(), Access.READ));
    }

    @Override
    public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
      read.add(ctx.paths().get("/path").real());
      return Json.object().put("ok", true);
    }
  }

  private static ToolPack pack(List<WarmupCall> calls, Path[] scratchSeen) {
    return new ToolPack() {
      @Override
      public String name() {
        return "test";
      }

      @Override
      public List<Tool> tools(PackContext context) {
        return List.of();
      }

      @Override
      public List<WarmupCall> warmups(Path scratch) throws java.io.IOException {
        scratchSeen[0] = scratch;
        Files.writeString(scratch.resolve("mine.txt"), "x");
        return calls;
      }
    };
  }

  /** The one warm-up call most tests make: {@code test.read} of {@code file}. */
  private static List<WarmupCall> readsOf(Path file) {
    return List.of(new WarmupCall("test.read", Json.object().put("path", file.toString())));
  }

  private Warmup start(Tool tool, List<WarmupCall> calls, int rounds, AtomicBoolean busy) {
    Path[] seen = new Path[1];
    return Warmup.create(
            List.of(pack(calls, seen)),
            new ToolRegistry().register(tool),
            dir.resolve("data/warmup"),
            dir,
            rounds,
            (t, args) -> !args.path("path").asText().contains("schema-fails"),
            busy::get,
            QUIET)
        .start();
  }

  /**
   * The quiet moment after a client's call in these tests: long beside what a test thread may be
   * held up on a loaded machine, so that what is asserted within it is not a race.
   */
  private static final Duration QUIET = Duration.ofSeconds(2);

  /** A reader whose first run waits until it is interrupted (then cancelled, as a walk is). */
  private static Reader slowFirst(
      CountDownLatch started, AtomicInteger runs, AtomicBoolean stopped) {
    return new Reader("test.read", false) {
      @Override
      public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
        if (runs.incrementAndGet() == 1) {
          started.countDown();
          try {
            Thread.sleep(30_000);
          } catch (InterruptedException e) {
            stopped.set(true);
            throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
          }
        }
        return super.run(args, ctx);
      }
    };
  }

  /** Waits up to 10 s for {@code flag}. */
  private static boolean within10s(AtomicBoolean flag) throws InterruptedException {
    long t0 = System.nanoTime();
    while (!flag.get() && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) Thread.sleep(5);
    return flag.get();
  }

  @Test
  void runs_each_call_each_round_on_the_packs_own_folder() throws Exception {
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    Warmup w = start(reader, readsOf(mine), 3, new AtomicBoolean());
    assertEquals(3, w.finished().get(10, TimeUnit.SECONDS));
    assertEquals(List.of(mine.toRealPath(), mine.toRealPath(), mine.toRealPath()), reader.read);
  }

  @Test
  void each_pack_is_primed_once_after_the_warm_up_calls() throws Exception {
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    List<Integer> primedAfter = new CopyOnWriteArrayList<>();
    Path[] seen = new Path[1];
    ToolPack calls = pack(readsOf(mine), seen);
    ToolPack priming = new ToolPack() {
      @Override
      public String name() {
        return "priming";
      }

      @Override
      public List<Tool> tools(PackContext context) {
        return List.of();
      }

      @Override
      public void prime() {
        primedAfter.add(reader.read.size());
      }
    };
    Warmup w = Warmup.create(
            List.of(priming, calls),
            new ToolRegistry().register(reader),
            dir.resolve("data/warmup"),
            dir,
            3,
            (t, args) -> true,
            () -> false,
            QUIET)
        .start();
    assertEquals(3, w.finished().get(10, TimeUnit.SECONDS));
    assertEquals(List.of(3), primedAfter, "once, after every round of the calls");
  }

  @Test
  void its_scope_refuses_stand_ins_for_stewards_own_folders_as_a_clients_does() throws Exception {
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    Path own = dir.resolve("data/warmup/test/own-data/x.txt");
    Files.createDirectories(own.getParent());
    Files.writeString(own, "refused as Steward's own data would be");
    Warmup w = start(
        reader,
        List.of(
            new WarmupCall("test.read", Json.object().put("path", own.toString())),
            new WarmupCall("test.read", Json.object().put("path", mine.toString()))),
        1,
        new AtomicBoolean());
    assertEquals(1, w.finished().get(10, TimeUnit.SECONDS), "the read in a stand-in is left out");
    assertEquals(List.of(mine.toRealPath()), reader.read);
    for (String name : List.of("own-config", "own-data", "own-run"))
      assertTrue(Files.isDirectory(dir.resolve("data/warmup/test").resolve(name)), name);
  }

  @Test
  void a_path_outside_the_packs_folder_and_a_tool_that_mutates_are_left_out() throws Exception {
    Files.writeString(dir.resolve("users-file.txt"), "the user's");
    Reader reader = new Reader("test.read", false);
    Warmup w = start(
        reader,
        List.of(
            new WarmupCall(
                "test.read",
                Json.object().put("path", dir.resolve("users-file.txt").toString())),
            new WarmupCall(
                "test.read",
                Json.object()
                    .put(
                        "path",
                        dir.resolve("data/warmup/test/../../../users-file.txt").toString())),
            new WarmupCall("test.unknown", Json.object().put("path", "x"))),
        2,
        new AtomicBoolean());
    assertEquals(0, w.finished().get(10, TimeUnit.SECONDS));
    assertEquals(List.of(), reader.read);

    Reader other = new Reader("other.read", false);
    Path mineToo = dir.resolve("data/warmup/test/mine.txt");
    Warmup w3 = start(
        other,
        List.of(new WarmupCall("other.read", Json.object().put("path", mineToo.toString()))),
        2,
        new AtomicBoolean());
    assertEquals(0, w3.finished().get(10, TimeUnit.SECONDS), "only the pack's own tools");
    assertEquals(List.of(), other.read);

    Reader strict = new Reader("test.read", false);
    Warmup w4 = start(
        strict,
        List.of(new WarmupCall(
            "test.read",
            Json.object()
                .put("path", dir.resolve("data/warmup/test/schema-fails").toString()))),
        2,
        new AtomicBoolean());
    assertEquals(0, w4.finished().get(10, TimeUnit.SECONDS), "arguments that fail the schema");
    assertEquals(List.of(), strict.read);

    Reader writer = new Reader("test.write", true);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    Warmup w2 = start(
        writer,
        List.of(new WarmupCall("test.write", Json.object().put("path", mine.toString()))),
        2,
        new AtomicBoolean());
    assertEquals(0, w2.finished().get(10, TimeUnit.SECONDS));
    assertEquals(List.of(), writer.read);
  }

  @Test
  void a_link_in_place_of_its_folder_is_removed_not_followed() throws Exception {
    Path users = Files.createDirectories(dir.resolve("users-folder"));
    Files.writeString(users.resolve("mine.txt"), "the user's own");
    Files.createDirectories(dir.resolve("data/warmup"));
    Files.createSymbolicLink(dir.resolve("data/warmup/test"), users);
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    Warmup w = start(reader, readsOf(mine), 1, new AtomicBoolean());
    assertEquals(1, w.finished().get(10, TimeUnit.SECONDS));
    assertFalse(Files.isSymbolicLink(dir.resolve("data/warmup/test")));
    assertEquals("the user's own", Files.readString(users.resolve("mine.txt")));
    assertEquals(List.of(mine.toRealPath()), reader.read);
    assertFalse(mine.toRealPath().startsWith(users.toRealPath()));
  }

  @Test
  void waits_while_a_clients_call_runs_and_stops_when_closed() throws Exception {
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    AtomicBoolean busy = new AtomicBoolean(true);
    Warmup w = start(reader, readsOf(mine), 2, busy);
    Thread.sleep(500);
    assertEquals(List.of(), reader.read, "nothing runs beside a client's call");
    assertFalse(w.finished().isDone());
    busy.set(false);
    assertEquals(2, w.finished().get(10, TimeUnit.SECONDS));

    AtomicBoolean stillBusy = new AtomicBoolean(true);
    Warmup stopped = start(reader, readsOf(mine), 2, stillBusy);
    stopped.close();
    assertEquals(-1, stopped.finished().get(10, TimeUnit.SECONDS));
  }

  @Test
  void a_warm_up_call_running_when_a_clients_call_begins_is_stopped_and_run_again_later()
      throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    AtomicBoolean stopped = new AtomicBoolean();
    Reader slow = slowFirst(started, runs, stopped);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    AtomicBoolean busy = new AtomicBoolean(false);
    Warmup w = start(slow, readsOf(mine), 2, busy);
    assertTrue(started.await(10, TimeUnit.SECONDS));
    busy.set(true);
    w.yieldToClient();
    assertTrue(within10s(stopped), "the warm-up's call stops when a client's begins");
    Thread.sleep(300);
    assertEquals(1, runs.get(), "and nothing more runs beside the client's call");
    busy.set(false);
    assertEquals(2, w.finished().get(10, TimeUnit.SECONDS), "both rounds ran in the end");
    assertEquals(3, runs.get(), "the stopped call ran again once the client's call was over");
    assertEquals(2, slow.read.size());
  }

  /**
   * An agent's calls come one after another with gaps of a millisecond: the warm-up begins nothing
   * in those gaps, only once the calls have stopped for a moment.
   */
  @Test
  void nothing_begins_in_the_short_gaps_between_a_clients_calls() throws Exception {
    Reader reader = new Reader("test.read", false);
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    AtomicBoolean busy = new AtomicBoolean(true);
    Warmup w = start(reader, readsOf(mine), 2, busy);
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(800);
    while (System.nanoTime() < until) {
      w.yieldToClient();
      busy.set(true);
      Thread.sleep(1);
      busy.set(false);
      Thread.sleep(3);
    }
    assertEquals(List.of(), reader.read, "nothing ran between the client's calls");
    assertEquals(2, w.finished().get(10, TimeUnit.SECONDS), "both rounds ran after them");
  }

  /**
   * A client's call that has come but whose tool has not begun (its checks still run) stops the
   * warm-up's call all the same, and nothing begins again until it has been quiet for a moment.
   */
  @Test
  void a_call_that_comes_stops_the_warm_up_and_holds_it_off_for_a_quiet_moment() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    AtomicBoolean stopped = new AtomicBoolean();
    Path mine = dir.resolve("data/warmup/test/mine.txt");
    Warmup w = start(slowFirst(started, runs, stopped), readsOf(mine), 2, new AtomicBoolean());
    assertTrue(started.await(10, TimeUnit.SECONDS));
    long came = System.nanoTime();
    w.yieldToClient();
    assertTrue(within10s(stopped), "the warm-up's call stops as a client's call comes");
    Thread.sleep(300);
    assertEquals(1, runs.get(), "nothing begins again within the quiet moment");
    assertEquals(2, w.finished().get(10, TimeUnit.SECONDS), "both rounds ran in the end");
    assertTrue(System.nanoTime() - came >= QUIET.toNanos(), "after the quiet moment");
    assertEquals(3, runs.get(), "the stopped call ran again");
  }
}
