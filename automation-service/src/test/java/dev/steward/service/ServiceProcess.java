package dev.steward.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The service started the way users and scripts start it: {@code ./steward service}, its own process. */
public final class ServiceProcess implements AutoCloseable {

  public final Path home;
  public final Process process;
  public final int port;

  private ServiceProcess(Path home, Process process, int port) {
    this.home = home;
    this.process = process;
    this.port = port;
  }

  public static Path repo() {
    String env = System.getenv("STEWARD_REPO");
    Path cwd = Path.of("").toAbsolutePath();
    Path repo = env != null
        ? Path.of(env)
        : Files.isExecutable(cwd.resolve("steward")) ? cwd : cwd.getParent();
    if (!Files.isExecutable(repo.resolve("steward")))
      throw new IllegalStateException("no ./steward launcher in " + repo);
    return repo;
  }

  public static ServiceProcess start(Path home, Path userHome) throws Exception {
    return start(home, userHome, List.of());
  }

  /** Starts the service without the named environment variables (e.g. DISPLAY: no desktop). */
  public static ServiceProcess start(Path home, Path userHome, List<String> unset)
      throws Exception {
    return start(
        List.of(repo().resolve("steward").toString(), "service"),
        home,
        userHome,
        unset,
        Map.of("JAVA_TOOL_OPTIONS", NO_WARMUP + " -Duser.home=" + userHome));
  }

  /** The idle warm-up off, for tests whose own calls it would compete with (WarmupIT tests it). */
  public static final String NO_WARMUP = "-Dsteward.warmup.rounds=0";

  /**
   * Starts the service with the given command (the launcher, or a packaged image's
   * steward-service), without the named environment variables and with the extra ones.
   */
  public static ServiceProcess start(
      List<String> command,
      Path home,
      Path userHome,
      List<String> unset,
      Map<String, String> extraEnv)
      throws Exception {
    Path info = home.resolve("run/service.json");
    Files.deleteIfExists(info);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("STEWARD_HOME", home.toString());
    pb.environment().put("STEWARD_NO_BUILD", "1");
    pb.environment().put("JAVA_TOOL_OPTIONS", "-Duser.home=" + userHome);
    unset.forEach(pb.environment()::remove);
    pb.environment().putAll(extraEnv);
    pb.redirectErrorStream(true);
    Path log = home.resolveSibling(home.getFileName() + "-service.log");
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process p = pb.start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (Instant.now().isBefore(deadline)) {
      if (!p.isAlive())
        throw new IllegalStateException(
            "the service exited with " + p.exitValue() + "; its log:\n" + tail(log));
      if (Files.exists(info)) {
        JsonNode n = Json.parse(Files.readString(info));
        if (n.path("pid").asLong() == p.pid())
          return new ServiceProcess(home, p, n.get("port").asInt());
      }
      Thread.sleep(20);
    }
    dump(p.pid());
    p.destroyForcibly();
    throw new IllegalStateException(
        "the service did not write run/service.json within 60 s; its log and threads:\n"
            + tail(log));
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 400), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** SIGQUIT: the JVM writes a thread dump to its own output, which goes to the log. */
  private static void dump(long pid) {
    try {
      new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).start().waitFor();
      Thread.sleep(1000);
    } catch (IOException | InterruptedException e) {
      // no dump then; the log still says how far start-up got
    }
  }

  /** A process's command line, its arguments joined by spaces; empty once it is gone. */
  public static String cmdline(long pid) {
    try {
      return new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")),
              java.nio.charset.StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  public String secret(Role role) throws IOException {
    return Files.readString(home.resolve("config/" + role.wire() + ".secret")).trim();
  }

  public StewardClient client(Role role) throws IOException {
    return StewardClient.connect(Endpoint.loopback(port, secret(role)));
  }

  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) kill();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
