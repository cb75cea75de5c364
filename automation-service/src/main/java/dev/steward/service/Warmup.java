package dev.steward.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.rpc.Params;
import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import dev.steward.service.tools.ToolRegistry;
import dev.steward.service.tools.UndoStash;
import dev.steward.service.tools.WarmupCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs the packs' warm-up calls on idle once the service answers (issue 23, ADR 29), so that a
 * user's first search or listing finds its code loaded and compiled instead of paying for the JIT.
 * The calls run on a thread of their own, on data the packs made in {@code data/warmup/<pack>}
 * under a scope that holds only that folder, straight on the tools, with the steps around a
 * client's call that change nothing (its request read, the gate's checks, its rows sealed in
 * memory only, its answer encoded): they are not a client's calls, so they are decided by no one
 * and leave no audit row, and they read nothing of the user's. A call waits until no client's call
 * has come for a moment, and one running when a client's call comes is stopped ({@link
 * #yieldToClient}); the whole warm-up is a fixed number of rounds.
 */
final class Warmup implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(Warmup.class.getName());

  /** Enough for the JIT to compile a listing's and a search's hot code (measured: ADR 29). */
  static final int DEFAULT_ROUNDS = 40;

  /**
   * After a client's call, a little quiet first: an agent's calls often come one after another,
   * with gaps of a millisecond between them, and a warm-up call begun in such a gap would be
   * stopped by the next call only after it had taken the walk pool's threads from it.
   */
  static final Duration QUIET = Duration.ofMillis(250);

  private static final long POLL_MILLIS = 20;

  /** The trace and call id of the warm-up's calls. */
  private static final String WARM_UP = "warm-up";

  /** A call as a client would send it ({@code request}), to be read and run each round. */
  private record Prepared(Tool tool, String request, PathScope scope) {}

  /** The gate's steps that change nothing, run on each warm-up call around the tool. */
  interface Checks {
    /** Before the run; false when the arguments fail the tool's schema. */
    boolean run(Tool tool, JsonNode args);

    /** After the run: the answer as the gate would give it. */
    default ToolResult answered(Tool tool, JsonNode args, JsonNode value) {
      return ToolResult.success(value, null);
    }
  }

  private final List<ToolPack> packs;
  private final ToolRegistry tools;
  private final Path scratch;
  private final Path userHome;
  private final Checks checks;
  private final BooleanSupplier busy;
  private final int rounds;
  private volatile boolean closed;
  /** Guards the two below: a client's call either finds the warm-up's call running, or is seen. */
  private final Object callLock = new Object();
  /** A warm-up call is running: a client's call that begins now stops it. */
  private boolean inCall;
  /** The running warm-up call was stopped for a client's call (and is run again later). */
  private boolean stoppedForClient;
  /** When a client's call last came to the gate or its tool began ({@link System#nanoTime}). */
  private volatile long lastClientCall;

  private final long quietNanos;

  private enum Outcome {
    RAN,
    FAILED,
    /** Not run, or stopped, because a client's call began: to be run again once it is quiet. */
    YIELDED
  }

  private final CompletableFuture<Integer> finished = new CompletableFuture<>();
  private final Thread thread;

  private Warmup(
      List<ToolPack> packs,
      ToolRegistry tools,
      Path scratch,
      Path userHome,
      int rounds,
      Checks checks,
      BooleanSupplier busy,
      Duration quiet) {
    this.quietNanos = quiet.toNanos();
    this.lastClientCall = System.nanoTime() - quietNanos;
    this.rounds = rounds;
    this.checks = checks;
    this.packs = packs;
    this.tools = tools;
    this.scratch = scratch;
    this.userHome = userHome;
    this.busy = busy;
    this.thread = DaemonThreads.named("warm-up").newThread(this::run);
    thread.setPriority(Thread.MIN_PRIORITY);
  }

  /**
   * A warm-up to {@link #start} once {@link #yieldToClient} is wired to the gate; {@code busy} says
   * whether a client's call is running, {@code quiet} how long after one it waits.
   */
  static Warmup create(
      List<ToolPack> packs,
      ToolRegistry tools,
      Path scratch,
      Path userHome,
      int rounds,
      Checks checks,
      BooleanSupplier busy,
      Duration quiet) {
    return new Warmup(packs, tools, scratch, userHome, rounds, checks, busy, quiet);
  }

  /** Starts warming up in the background. */
  Warmup start() {
    if (rounds > 0) thread.start();
    else finished.complete(0);
    return this;
  }

  private void run() {
    try {
      long t0 = System.nanoTime();
      List<Prepared> calls = prepare();
      int done = 0;
      for (int round = 0; round < rounds && !closed; round++) {
        for (Prepared call : calls) {
          Outcome outcome;
          do {
            if (!awaitIdle()) return;
            outcome = runOnce(call, round);
          } while (outcome == Outcome.YIELDED);
          if (outcome == Outcome.RAN) done++;
        }
      }
      for (ToolPack pack : packs) {
        if (!awaitIdle()) return;
        prime(pack);
      }
      if (closed) return;
      int ran = done;
      LOG.fine(() -> "warm-up: " + ran + " calls (" + calls.size() + " a round) in "
          + (System.nanoTime() - t0) / 1_000_000 + " ms");
      finished.complete(ran);
    } catch (InterruptedException e) {
      // closed
    } catch (IOException | RuntimeException e) {
      // A warm-up that cannot run costs the user only the speed of the first calls.
      LOG.log(Level.WARNING, "warm-up stopped", e);
    } finally {
      finished.complete(-1);
    }
  }

  /** A pack's priming; one that fails costs only the speed of that pack's first call. */
  private static void prime(ToolPack pack) {
    try {
      pack.prime();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, "warm-up: the " + pack.name() + " pack's priming failed", e);
    }
    // A client's stop that came during it is for the priming only; a close is seen by the loop.
    Thread.interrupted();
  }

  private List<Prepared> prepare() throws IOException {
    List<Prepared> out = new ArrayList<>();
    ownFolder(scratch);
    for (ToolPack pack : packs) {
      Path folder = ownFolder(scratch.resolve(pack.name()));
      List<WarmupCall> offered = pack.warmups(folder);
      if (offered.isEmpty()) {
        try (var left = Files.list(folder)) {
          if (left.findAny().isEmpty()) Files.delete(folder); // no folder for a pack with none
        }
        continue;
      }
      PathScope scope = PathScope.of(
          List.of(new PolicyDocument.PathRoot(folder.toString(), PolicyDocument.PathRoot.READ)),
          ownStandIns(folder),
          userHome);
      for (WarmupCall call : offered) {
        Tool tool = tools.find(call.tool()).orElse(null);
        Optional<String> refused =
            tool == null ? Optional.of("no such tool") : refusal(pack, tool, call);
        if (tool == null || refused.isPresent()) {
          LOG.warning(() -> "warm-up call of " + call.tool() + " left out: " + refused.orElse(""));
          continue;
        }
        try {
          resolve(tool, call.args(), scope);
        } catch (ScopeDenied e) {
          LOG.warning(() -> "warm-up call of " + call.tool() + " left out: " + e.getMessage());
          continue;
        }
        Execute.Params params =
            new Execute.Params(WARM_UP, WARM_UP, call.tool(), call.args(), null, null);
        out.add(new Prepared(
            tool,
            MessageCodec.write(
                new Request(IntNode.valueOf(1), Methods.TOOL_EXECUTE, Json.pojo(params))),
            scope));
      }
    }
    return out;
  }

  /**
   * Why a pack's warm-up call may not run, if it may not: only the pack's own low-risk tools that
   * read files — nothing that changes anything, sends anything, reaches a host, or reads anything
   * but paths (which the scope then holds to the pack's folder) — and only arguments that pass
   * the tool's schema. What runs here has no audit row, so it must be nothing a row would matter
   * for.
   */
  private Optional<String> refusal(ToolPack pack, Tool tool, WarmupCall call) {
    JsonNode args = call.args();
    if (!call.tool().startsWith(pack.name() + ".")) return Optional.of("not the pack's own tool");
    if (tool.definition().risk() != dev.steward.protocol.tool.Risk.LOW)
      return Optional.of("not a low-risk tool");
    if (tool.mutates(args) || tool.sends(args)) return Optional.of("it changes or sends");
    if (!tool.hosts(args).isEmpty()) return Optional.of("it reaches a host");
    if (tool.paths(args).isEmpty()) return Optional.of("it reads no path");
    if (tool.unavailable().isPresent()) return Optional.of("the tool is unavailable");
    if (!checks.run(tool, args)) return Optional.of("its arguments fail the tool's schema");
    return Optional.empty();
  }

  /**
   * Folders the warm-up's scope refuses as a client's scope refuses Steward's config, data and run
   * folders, so that its walks ask what a client's walks ask in every folder (compiled code that
   * never saw the question is thrown away at the first call that asks it). They stand in the
   * pack's folder, where a listing of it meets them.
   */
  private static List<Path> ownStandIns(Path folder) throws IOException {
    List<Path> out = new ArrayList<>();
    for (String name : List.of("own-config", "own-data", "own-run"))
      out.add(ownFolder(folder.resolve(name)));
    return out;
  }

  /**
   * A folder of the warm-up's own: made when missing, and never a link (a link here would point
   * the warm-up's scope, and the tree a pack makes in it, somewhere else).
   */
  private static Path ownFolder(Path folder) throws IOException {
    if (Files.isSymbolicLink(folder)) Files.delete(folder);
    Files.createDirectories(folder);
    if (!Files.isDirectory(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS))
      throw new IOException(folder + " is not a folder");
    return folder;
  }

  /** The call as a client's would run, unless a client's call begins first or meanwhile. */
  private Outcome runOnce(Prepared call, int round) {
    synchronized (callLock) {
      // Under the lock, as the client's side takes it: a call that came since awaitIdle is seen.
      if (busy.getAsBoolean() || System.nanoTime() - lastClientCall < quietNanos)
        return Outcome.YIELDED;
      inCall = true;
      stoppedForClient = false;
    }
    boolean ran = false;
    boolean stopped;
    try {
      ran = runAndEncode(call, round);
    } finally {
      synchronized (callLock) {
        inCall = false;
        stopped = stoppedForClient;
      }
      // A client's stop is for this call only; a close is seen by the loop.
      Thread.interrupted();
    }
    return stopped ? Outcome.YIELDED : ran ? Outcome.RAN : Outcome.FAILED;
  }

  /** The paths a call names, each resolved in the warm-up's scope, by their pointers. */
  private static Map<String, ResolvedPath> resolve(Tool tool, JsonNode args, PathScope scope)
      throws ScopeDenied {
    Map<String, ResolvedPath> paths = new HashMap<>();
    for (PathUse use : tool.paths(args))
      paths.put(use.pointer(), scope.resolve(use.path(), use.access()));
    return paths;
  }

  /**
   * Reads the call as the dispatcher reads a client's, runs it with the gate's steps that change
   * nothing around it, and encodes its answer as it would be sent: a client's first calls then
   * find that code compiled too, not only the tool's. False if it failed or was stopped.
   */
  private boolean runAndEncode(Prepared call, int round) {
    try {
      if (!(MessageCodec.parse(call.request).items().get(0) instanceof MessageCodec.Valid read)
          || !(read.message() instanceof Request r)) return false;
      JsonNode params = r.params();
      if (params == null) return false;
      JsonNode args = Params.read(params, Execute.Params.class).args();
      if (!checks.run(call.tool, args) || Thread.currentThread().isInterrupted()) return false;
      ToolContext context = new ToolContext(
          resolve(call.tool, args, call.scope), call.scope, message -> {}, false, UndoStash.none());
      call.tool.taintSource(args, context);
      JsonNode value = call.tool.run(args, context);
      if (Thread.currentThread().isInterrupted()) return false;
      ToolResult answer = checks.answered(call.tool, args, value);
      // Encoded as the dispatcher encodes a client's answer (a POJO node written straight out): a
      // tree made first would send the JIT compiling Jackson's tree reader, which no call uses.
      MessageCodec.writeUtf8(Response.result(IntNode.valueOf(round), Json.pojo(answer)));
      return true;
    } catch (ToolFailure | ScopeDenied | RuntimeException e) {
      return false;
    }
  }

  /**
   * A client's call has come (or its tool begins): the warm-up call running now stops at once. Its
   * walk would share the walk pool's threads with the client's, and on two cores a warm-up search
   * still running in the interpreter held the first listing back by tens of milliseconds.
   */
  void yieldToClient() {
    synchronized (callLock) {
      lastClientCall = System.nanoTime();
      if (inCall) {
        stoppedForClient = true;
        thread.interrupt();
      }
    }
  }

  /**
   * Waits until no client's call runs and none has begun or been seen running for a moment; false
   * once closed.
   */
  private boolean awaitIdle() throws InterruptedException {
    long lastBusy = System.nanoTime() - quietNanos;
    while (!closed) {
      long now = System.nanoTime();
      if (busy.getAsBoolean()) lastBusy = now;
      long quietFor = Math.min(now - lastBusy, now - lastClientCall);
      if (quietFor >= quietNanos) return true;
      Thread.sleep(Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(quietNanos - quietFor) + 1));
    }
    return false;
  }

  /** Completes with how many calls ran once the warm-up is over (-1: it was stopped). */
  CompletableFuture<Integer> finished() {
    return finished;
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
