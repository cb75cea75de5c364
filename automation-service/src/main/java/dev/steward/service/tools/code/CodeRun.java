package dev.steward.service.tools.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Provenance;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@code code.run}: Python or Bash in the {@link Sandbox}, off until the user turns it on, every
 * run confirmed (the dialog shows the code). The result has the program's output (each stream cut
 * at {@value #MAX_OUTPUT} bytes), exit code and time, and the workspace files it wrote or removed;
 * {@code tool.undo} puts back what it overwrote or removed and takes away what it made. A run past
 * its time is killed with everything it started.
 */
final class CodeRun extends BaseTool {

  static final int MAX_OUTPUT = 1 << 20;
  private static final int MAX_FILES_LISTED = 100;
  private static final Pattern ENV_NAME = Pattern.compile("[A-Z_][A-Z0-9_]{0,63}");
  private static final java.util.Set<String> ENV_RESERVED =
      java.util.Set.of("PATH", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE");
  /**
   * Variables that make a shell run code the dialog does not show (a file or stdin before the
   * program, a command in each trace line or prompt) or read its words differently.
   */
  private static final java.util.Set<String> ENV_RUNS_CODE = java.util.Set.of(
      "BASH_ENV",
      "ENV",
      "SHELLOPTS",
      "BASHOPTS",
      "PS4",
      "BASH_XTRACEFD",
      "PROMPT_COMMAND",
      "IFS",
      "CDPATH",
      "GLOBIGNORE",
      "BASH_LOADABLES_PATH",
      // A run's locale is its own (LC_* below): one whose multi-byte characters end in a
      // backslash's byte (GBK, Big5, Shift JIS) makes the shell read a quote the dialog shows as
      // escaped as a closing one; these choose or load locales too.
      "LANGUAGE",
      "LOCPATH",
      // The shell runs the same text by other rules.
      "BASH_COMPAT",
      "POSIXLY_CORRECT");

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(CodeRun.class, "code.run.json");
  /** The longest a run may be given, as its schema says. */
  static final int MAX_TIMEOUT_S =
      DEFINITION.argsSchema().at("/properties/timeout_s/maximum").asInt();

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(CodeRun.class.getName());
  /**
   * The runs' pipes are read and written here: a thread for each at once (a blocked read never
   * holds up another run's), kept a while for the next run rather than made for each.
   */
  private static final java.util.concurrent.ExecutorService IO =
      java.util.concurrent.Executors.newCachedThreadPool(
          dev.steward.protocol.util.DaemonThreads.named("code-run-io"));

  /**
   * One run or undo at a time, whatever the workspace (one may hold another): two at once could
   * change what the other's walks and copies see between a check and its use.
   */
  private static final java.util.concurrent.locks.ReentrantLock TURN =
      new java.util.concurrent.locks.ReentrantLock();

  private static final long TURN_WAIT_S = 30;

  /** The workspace swept clean of set-ID files since the last run in it, or null. */
  private static volatile @org.jspecify.annotations.Nullable Path swept;

  private static final java.util.concurrent.ExecutorService SWEEPER =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          dev.steward.protocol.util.DaemonThreads.named("code-setid-sweep"));

  /** The undo record's kind: a run's changes to its workspace. */
  static final String RUN = "run";

  private final Supplier<PolicyDocument> policy;
  private final Path userHome;
  private final List<Path> privateFolders;
  private final ReadySandbox ready;

  CodeRun(
      Supplier<PolicyDocument> policy,
      Path userHome,
      List<Path> privateFolders,
      ReadySandbox ready) {
    super(DEFINITION);
    this.policy = policy;
    this.userHome = userHome;
    this.privateFolders = List.copyOf(privateFolders);
    this.ready = ready;
  }

  @Override
  public Optional<String> unavailable() {
    PolicyDocument.Code code = policy.get().code();
    if (!code.enabled()) {
      return Optional.of("code runs are off: the user can turn them on in Settings (code.enabled)");
    }
    Optional<String> missing = Sandbox.missing();
    if (missing.isPresent()) return missing;
    try {
      workspace(code);
    } catch (ToolFailure e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
    return Optional.empty();
  }

  /** With the network allowed, a run can reach anything: SPEC §13 makes it high risk (never under a grant). */
  @Override
  public Risk risk(JsonNode args, ToolContext ctx) {
    return policy.get().code().network() ? Risk.HIGH : definition().risk();
  }

  /** With the network allowed, what runs can carry data off the machine. */
  @Override
  public boolean sends(JsonNode args) {
    return policy.get().code().network();
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    return true;
  }

  @Override
  public Duration timeLimit() {
    return Duration.ofSeconds(330);
  }

  private Path workspace(PolicyDocument.Code code) throws ToolFailure {
    String w = code.workspace();
    Path folder = w.equals("~") || w.startsWith("~/")
        ? userHome.resolve(w.equals("~") ? "" : w.substring(2))
        : Path.of(w);
    if (!folder.isAbsolute()) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "code.workspace is an absolute folder or ~/…");
    }
    Path real;
    Path home;
    try {
      Files.createDirectories(folder);
      real = folder.toRealPath();
      home = userHome.toRealPath();
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the code workspace " + folder + " cannot be used: " + e.getMessage());
    }
    // The home folder or one that holds it would show everything in it (keys, browser profiles).
    if (home.startsWith(real) || real.getNameCount() < 2) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the code workspace must be a folder of its own, not " + real);
    }
    for (Path own : privateFolders) {
      Path o = realOrAsIs(own);
      if (real.startsWith(o) || o.startsWith(real)) {
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "the code workspace " + real + " holds or is inside Steward's own folders");
      }
    }
    return real;
  }

  private static Path realOrAsIs(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  /** With the network on, what a run fetched is a stranger's text. */
  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return policy.get().code().network()
        ? Optional.of("a code run with the network")
        : Optional.empty();
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ObjectNode p = Json.object();
    p.put("operation", "run code");
    p.put("language", args.path("language").asText());
    p.put("code", args.path("code").asText());
    if (args.path("args").size() > 0) p.set("args", args.path("args"));
    if (args.path("env").size() > 0) p.set("env", args.path("env"));
    String input = args.hasNonNull("stdin") ? args.path("stdin").asText() : null;
    if (input != null) {
      p.put("stdin_bytes", input.getBytes(StandardCharsets.UTF_8).length);
      // A program can run what it reads ("exec(sys.stdin.read())"): the person approving sees
      // the input beside the code. The log keeps its size and hash, as it does a file's text.
      if (ctx.forPerson()) p.put("stdin", input);
    }
    p.put("network", policy.get().code().network());
    try {
      p.put("workspace", workspace(policy.get().code()).toString());
    } catch (ToolFailure e) {
      p.put("workspace", policy.get().code().workspace());
    }
    PolicyDocument.Code code = policy.get().code();
    p.put(
        "says",
        "Run this " + (args.path("language").asText().equals("bash") ? "Bash" : "Python")
            + " program in a sandbox that sees only " + code.workspace()
            + (code.network()
                ? ", with the network (it could send data out)"
                : ", without the network")
            + (input != null && !input.isEmpty()
                ? "; it is given an input ("
                    + Counted.of(input.getBytes(StandardCharsets.UTF_8).length, "byte", "bytes")
                    + ")"
                : ""));
    return Optional.of(p);
  }

  @Override
  public java.util.Set<String> sensitiveArgs() {
    return java.util.Set.of("stdin");
  }

  /** Before a dialog shows the run: variables a run may be given, and text a shell can hold. */
  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    checkText(args.path("code").asText(), "/code");
    int i = 0;
    for (JsonNode a : args.path("args")) checkText(a.asText(), "/args/" + i++);
    var names = args.path("env").fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!ENV_NAME.matcher(name).matches()
          || ENV_RESERVED.contains(name)
          || ENV_RUNS_CODE.contains(name)
          || name.startsWith("LD_")
          || name.startsWith("LC_")) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            name + " cannot be set for a run",
            "/env/" + name,
            null);
      }
      checkText(args.path("env").path(name).asText(), "/env/" + name);
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    Optional<String> why = unavailable();
    if (why.isPresent()) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, why.get());
    PolicyDocument.Code code = policy.get().code();
    Sandbox.Setup setup = setup(code);
    int timeout = args.path("timeout_s").asInt(60);
    List<String> programArgs = new ArrayList<>();
    for (JsonNode a : args.path("args")) programArgs.add(a.asText());
    Map<String, String> env = new LinkedHashMap<>();
    var names = args.path("env").fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      env.put(name, args.path("env").path(name).asText());
    }
    Sandbox.Program program = new Sandbox.Program(
        args.path("language").asText(), args.path("code").asText(), programArgs, env, timeout + 1);
    takeTurn();
    try {
      return runAlone(setup, program, timeout, args, ctx);
    } finally {
      TURN.unlock();
    }
  }

  /**
   * Waits for the runs and undos before this one (never longer than {@link #TURN_WAIT_S}; a
   * cancel ends the wait).
   */
  private static void takeTurn() throws ToolFailure {
    try {
      if (TURN.tryLock(TURN_WAIT_S, TimeUnit.SECONDS)) return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the run was cancelled before it started");
    }
    throw new ToolFailure(
        ToolErrorCodes.CONFLICT,
        "another code run or undo is still using the workspace; try again when it has ended");
  }

  private JsonNode runAlone(
      Sandbox.Setup setup, Sandbox.Program program, int timeout, JsonNode args, ToolContext ctx)
      throws ToolFailure {
    if (!setup.workspace().equals(swept)) {
      Optional<String> problem = SetIdSweep.problem(setup.workspace());
      if (problem.isPresent())
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "the code workspace could not be checked for set-user-ID files (" + problem.get()
                + "); nothing ran");
    }
    swept = null;
    // The settings as approved are the ones the run gets: a change since (the network turned
    // on, another folder) stops it.
    if (!setup.equals(setup(policy.get().code())))
      throw new ToolFailure(
          ToolErrorCodes.CONFLICT,
          "the code runs' settings changed since this run was asked for; ask for it again");
    WorkspaceSnapshot snapshot;
    try {
      snapshot = WorkspaceSnapshot.take(setup.workspace(), () -> ctx.undo().folder());
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "cannot note the workspace before the run: " + e.getMessage());
    }
    // What the run prints or writes may be a stranger's words: from the network, or from a file
    // in the workspace that came from strangers. The conversation is tainted before it reads it.
    String strangers = setup.network()
        ? "a code run with the network"
        : snapshot.fromStrangers().map(f -> "a code run that could read " + f).orElse(null);
    if (strangers != null && !setup.network())
      ctx.taint().accept(strangers + " (a file that came from strangers)");
    // A program a conversation wrote after untrusted content carries it on in what it writes.
    if (strangers == null && ctx.tainted())
      strangers = "a code run in a conversation that took in untrusted content";
    Sandbox.Prepared sandbox;
    try {
      sandbox = ready.take(setup);
    } catch (IOException e) {
      snapshot.discard();
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "cannot start the sandbox: " + e.getMessage());
    }
    try {
      long start = System.nanoTime();
      Process process;
      try {
        process = sandbox.go(program);
      } catch (IOException e) {
        snapshot.discard();
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR, "cannot start the run: " + e.getMessage());
      }
      CompletableFuture<Output> out = read(process.getInputStream());
      CompletableFuture<Output> err = read(process.getErrorStream());
      byte[] input = args.path("stdin").asText("").getBytes(StandardCharsets.UTF_8);
      // On another thread: a program that never reads would block the write, and the
      // clock must run meanwhile. Stopping the process breaks the pipe and ends the write.
      IO.execute(() -> {
        try (OutputStream in = process.getOutputStream()) {
          in.write(input);
        } catch (IOException e) {
          // the program did not read all its input: that is its business
        }
      });
      boolean finished;
      try {
        finished = process.waitFor(timeout, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        stop(process);
        // Files cannot be written on an interrupted thread: the undo record first, then the flag.
        keep(snapshot.compare(), ctx, strangers);
        Thread.currentThread().interrupt();
        throw new ToolFailure(ToolErrorCodes.CANCELLED, "the run was cancelled and stopped");
      }
      if (!finished) {
        stop(process);
        keep(snapshot.compare(), ctx, strangers);
        ObjectNode partial = Json.object();
        partial.put("stdout", out.join().text());
        partial.put("stderr", err.join().text());
        throw new ToolFailure(
            ToolErrorCodes.TIMEOUT,
            "the run passed its time limit of " + timeout
                + " s and was stopped with all it started",
            "/timeout_s",
            partial);
      }
      Output stdout = out.join();
      Output stderr = err.join();
      ObjectNode result = Json.object();
      result.put("stdout", stdout.text());
      result.put("stderr", stderr.text());
      result.put("exit_code", process.exitValue());
      result.put("duration_ms", (System.nanoTime() - start) / 1_000_000);
      result.put("truncated", stdout.cut() || stderr.cut());
      WorkspaceSnapshot.Changes changes = snapshot.compare();
      keep(changes, ctx, strangers);
      list(result.putArray("files"), changes.written());
      list(result.putArray("removed"), changes.removed());
      list(result.putArray("not_undoable"), changes.notUndoable());
      return result;
    } finally {
      sandbox.close();
      sweepAfter(setup.workspace());
      prepareAhead();
    }
  }

  /**
   * Sweeps the workspace for set-ID files after a run, in the background and in turn with the
   * runs: the answer need not wait, the next run waits for it (or sweeps itself first).
   */
  private static void sweepAfter(Path workspace) {
    try {
      SWEEPER.execute(() -> {
        TURN.lock();
        try {
          Optional<String> problem = SetIdSweep.problem(workspace);
          if (problem.isEmpty()) swept = workspace;
          else
            LOG.severe("code.run: the workspace " + workspace
                + " could not be checked for set-user-ID files (" + problem.get()
                + "); the next run checks again first");
        } finally {
          TURN.unlock();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // the next run sweeps first
    }
  }

  /**
   * Keeps what an undo of the run needs: what it overwrote or removed, and what it made; and
   * marks what it wrote as a stranger's when what it read may have been ({@code strangers}).
   */
  private void keep(
      WorkspaceSnapshot.Changes changes, ToolContext ctx, @Nullable String strangers) {
    if (strangers != null) {
      // What the walks saw change, by its stamp (a network file system's change times may run
      // behind this clock); then whatever else changed, by its change time.
      for (String written : changes.written())
        Provenance.markMade(changes.workspace().resolve(written), strangers);
      WorkspaceSnapshot.markChanged(changes, strangers);
    }
    if (changes.undo().isEmpty()) return;
    ObjectNode data = Json.object();
    data.put("workspace", changes.workspace().toString());
    ObjectNode modes = data.putObject("modes");
    changes.modes().forEach(modes::put);
    try {
      ctx.undo().save(new UndoRecord(name(), RUN, changes.undo(), false, data));
    } catch (IOException e) {
      // The run happened: its answer stands, without an undo.
      LOG.log(java.util.logging.Level.WARNING, "code.run: the undo record was not kept", e);
    }
  }

  private static void list(ArrayNode into, List<String> paths) {
    for (String p : paths) {
      if (into.size() >= MAX_FILES_LISTED) break;
      into.add(p);
    }
  }

  /** Text that goes into a file the sandbox's shell reads: a NUL would cut it short. */
  private static void checkText(String value, String field) throws ToolFailure {
    if (value.indexOf('\0') >= 0)
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "a NUL character cannot be passed to a run",
          field,
          null);
  }

  private Sandbox.Setup setup(PolicyDocument.Code code) throws ToolFailure {
    Path workspace = workspace(code);
    Object key;
    try {
      key = Files.readAttributes(workspace, BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, "the code workspace cannot be used: " + e.getMessage());
    }
    return new Sandbox.Setup(
        workspace,
        key == null ? workspace : key,
        code.network(),
        (long) code.memory() << 20,
        (long) code.fileSize() << 20);
  }

  /** Starts a sandbox ahead when runs are on (at start, and when the setting changes). */
  void prepareAhead() {
    PolicyDocument.Code code = policy.get().code();
    if (!code.enabled() || Sandbox.missing().isPresent()) {
      ready.drop();
      return;
    }
    try {
      ready.prepareNext(setup(code));
    } catch (ToolFailure e) {
      ready.drop();
    }
  }

  /**
   * Puts back what the run overwrote or removed and takes away what it made — only when every
   * path still holds what the run left there, and only inside today's workspace; else nothing
   * changes.
   */
  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    Path workspace = workspace(policy.get().code());
    JsonNode data = record.data();
    if (data == null || !workspace.toString().equals(data.path("workspace").asText()))
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the code workspace is no longer the one that run used; not undone, nothing changed",
          "/audit_id",
          null);
    takeTurn();
    try {
      return RunUndo.undo(workspace, record.items(), data.path("modes"), ctx);
    } finally {
      TURN.unlock();
    }
  }

  private static void stop(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A stream's text, up to {@link #MAX_OUTPUT} bytes; the rest is read and dropped. */
  private record Output(String text, boolean cut) {}

  private static CompletableFuture<Output> read(InputStream stream) {
    CompletableFuture<Output> done = new CompletableFuture<>();
    IO.execute(() -> {
      ByteArrayOutputStream kept = new ByteArrayOutputStream();
      boolean cut = false;
      byte[] buf = new byte[16 * 1024];
      try (stream) {
        int n;
        while ((n = stream.read(buf)) > 0) {
          int room = MAX_OUTPUT - kept.size();
          if (room > 0) kept.write(buf, 0, Math.min(room, n));
          if (n > room) cut = true;
        }
      } catch (IOException e) {
        // the process ended: what was read is what there is
      }
      done.complete(new Output(kept.toString(StandardCharsets.UTF_8), cut));
    });
    return done;
  }
}
