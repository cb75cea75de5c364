package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
    // The launcher starts its "server", says its pid, and crashes while the server runs on.
    List<String> launcher =
        List.of("/bin/sh", "-c", "sleep 300 & echo $! > " + pidFile + "; sleep 0.3; exit 3");
    Sandbox sandbox = Sandbox.find(Map.of("PATH", "/usr/bin:/bin"), List.of());
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
    long child = Long.parseLong(Files.readString(pidFile).strip());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false)
        && System.nanoTime() < deadline) Thread.sleep(50);
    boolean alive = ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false);
    if (alive) ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
    assertFalse(alive, "the launcher's child outlived it");
    t.closeGracefully().block();
  }
}
