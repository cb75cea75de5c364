package dev.steward.service.tools.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code code.run}: Python or Bash in the {@link Sandbox}, off until the user turns it on, every
 * run confirmed (the dialog shows the code). The result has the program's output (each stream cut
 * at {@value #MAX_OUTPUT} bytes), exit code and time, and the workspace files it created or
 * changed. A run past its time is killed with everything it started.
 */
final class CodeRun extends BaseTool {

  static final int MAX_OUTPUT = 1 << 20;
  private static final int MAX_FILES_LISTED = 100;
  private static final int MAX_WALK = 20_000;
  private static final Pattern ENV_NAME = Pattern.compile("[A-Z_][A-Z0-9_]{0,63}");
  private static final java.util.Set<String> ENV_RESERVED =
      java.util.Set.of("PATH", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE");

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(CodeRun.class, "code.run.json");

  private final Supplier<PolicyDocument> policy;
  private final Path userHome;
  private final List<Path> privateFolders;

  CodeRun(Supplier<PolicyDocument> policy, Path userHome, List<Path> privateFolders) {
    super(DEFINITION);
    this.policy = policy;
    this.userHome = userHome;
    this.privateFolders = List.copyOf(privateFolders);
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
    p.put("network", policy.get().code().network());
    try {
      p.put("workspace", workspace(policy.get().code()).toString());
    } catch (ToolFailure e) {
      p.put("workspace", policy.get().code().workspace());
    }
    return Optional.of(p);
  }

  @Override
  public java.util.Set<String> sensitiveArgs() {
    return java.util.Set.of("stdin");
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    Optional<String> why = unavailable();
    if (why.isPresent()) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, why.get());
    PolicyDocument.Code code = policy.get().code();
    Path workspace = workspace(code);
    int timeout = args.path("timeout_s").asInt(60);
    List<String> program = new ArrayList<>();
    String source = args.path("code").asText();
    if (args.path("language").asText().equals("bash")) {
      program.addAll(List.of("/bin/bash", "-c", source, "bash"));
    } else {
      program.addAll(List.of("/usr/bin/python3", "-I", "-c", source));
    }
    for (JsonNode a : args.path("args")) program.add(a.asText());
    Map<String, String> env = new LinkedHashMap<>();
    var names = args.path("env").fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!ENV_NAME.matcher(name).matches()
          || ENV_RESERVED.contains(name)
          || name.startsWith("LD_")) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            name + " cannot be set for a run",
            "/env/" + name,
            null);
      }
      env.put(name, args.path("env").path(name).asText());
    }
    Map<String, String> before = files(workspace);
    Sandbox.Command command;
    try {
      command =
          Sandbox.command(new Sandbox.Run(program, workspace, env, code.network(), timeout + 1));
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "cannot prepare the sandbox: " + e.getMessage());
    }
    long start = System.nanoTime();
    Process process;
    try {
      ProcessBuilder pb = new ProcessBuilder(command.argv());
      // bubblewrap's own environment is readable from inside (its /proc entry): it gets none.
      pb.environment().clear();
      pb.environment().put("PATH", "/usr/bin:/bin");
      process = pb.start();
    } catch (IOException e) {
      Sandbox.release(command.cgroup());
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "cannot start the sandbox: " + e.getMessage());
    }
    try {
      CompletableFuture<Output> out = read(process.getInputStream());
      CompletableFuture<Output> err = read(process.getErrorStream());
      byte[] input = args.path("stdin").asText("").getBytes(StandardCharsets.UTF_8);
      // On a thread of its own: a program that never reads would block the write, and the
      // clock must run meanwhile. Stopping the process breaks the pipe and ends the write.
      Thread feeder = new Thread(
          () -> {
            try (OutputStream in = process.getOutputStream()) {
              in.write(input);
            } catch (IOException e) {
              // the program did not read all its input: that is its business
            }
          },
          "code-run-stdin");
      feeder.setDaemon(true);
      feeder.start();
      boolean finished;
      try {
        finished = process.waitFor(timeout, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        stop(process);
        Thread.currentThread().interrupt();
        throw new ToolFailure(ToolErrorCodes.CANCELLED, "the run was cancelled and stopped");
      }
      if (!finished) {
        stop(process);
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
      ArrayNode written = result.putArray("files");
      Map<String, String> after = files(workspace);
      after.forEach((path, stamp) -> {
        if (!stamp.equals(before.get(path)) && written.size() < MAX_FILES_LISTED) written.add(path);
      });
      return result;
    } finally {
      if (process.isAlive()) stop(process);
      Sandbox.release(command.cgroup());
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
    Thread reader = new Thread(
        () -> {
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
        },
        "code-run-output");
    // Threads of its own, not a shared pool: a blocked read must not hold up other runs.
    reader.setDaemon(true);
    reader.start();
    return done;
  }

  /** The workspace's files, by path relative to it, with size and time: what a run changed shows. */
  private static Map<String, String> files(Path workspace) {
    Map<String, String> out = new LinkedHashMap<>();
    try {
      Files.walkFileTree(
          workspace,
          EnumSet.noneOf(FileVisitOption.class),
          8,
          new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes a) {
              if (out.size() >= MAX_WALK) return java.nio.file.FileVisitResult.TERMINATE;
              out.put(
                  workspace.relativize(file).toString(),
                  a.size() + "@" + a.lastModifiedTime().toMillis());
              return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
              return java.nio.file.FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // a listing that fails lists less; the run's own result stands
    }
    return out;
  }
}
