package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

/**
 * A launcher (npx, a shell script) that crashes leaves no orphan behind: what it started is ended
 * with it, sandboxed or not.
 */
class ProcessGroupTest {

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void whatACrashedLauncherStartedEndsWithIt(boolean sandboxed) throws Exception {
    Path pidFile = dir.resolve("child.pid");
    // The launcher starts its "server", says it has, and crashes while the server runs on. The
    // server is found by its unique argument: in the sandbox's own process view its pid is not
    // the machine's.
    String mark = "3" + (System.nanoTime() % 100_000) + ".5";
    List<String> launcher = List.of(
        "/bin/sh", "-c", "sleep " + mark + " & echo $! > " + pidFile + "; sleep 0.3; exit 3");
    Sandbox sandbox = Sandbox.find(List.of(), () -> new RunPlaces(List.of()));
    assertTrue(sandbox.available(), "the tests need bubblewrap (./steward test installs it)");
    Path own = Files.createDirectories(dir.resolve("server"));
    CompletableFuture<Integer> exited = new CompletableFuture<>();
    ChildProcessTransport t = new ChildProcessTransport(
        new ChildProcessTransport.Command(
            sandboxed ? sandbox.wrap(launcher, own) : launcher,
            Map.of("PATH", "/usr/bin:/bin"),
            own,
            dir.resolve("stderr.log")),
        McpJsonDefaults.getMapper(),
        exited::complete);
    t.connect(message -> Mono.empty()).block();
    exited.get(10, TimeUnit.SECONDS);
    assertTrue(Files.readString(pidFile).strip().matches("\\d+"), "the server was started");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!servers(mark).isEmpty() && System.nanoTime() < deadline) Thread.sleep(50);
    List<ProcessHandle> alive = servers(mark);
    alive.forEach(ProcessHandle::destroyForcibly);
    assertTrue(alive.isEmpty(), "the launcher's child outlived it");
    t.closeGracefully().block();
  }

  /** The processes running {@code sleep mark} now. */
  private static List<ProcessHandle> servers(String mark) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").equals("/usr/bin/sleep " + mark)
            || p.info().arguments().map(a -> a.length == 1 && a[0].equals(mark)).orElse(false))
        .toList();
  }
}
