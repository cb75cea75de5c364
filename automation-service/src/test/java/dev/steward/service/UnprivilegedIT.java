package dev.steward.service;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.util.Privilege;
import dev.steward.service.util.Trees;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The service as its users run it: not as root. Every other test runs as the build's user, which
 * in CI is root, and there the sandboxes take their root paths (Chromium without its own sandbox,
 * which it cannot keep as root; MCP servers with root's capabilities dropped; code runs switched to
 * {@code nobody}). Here the service runs as {@code nobody} (or as the user running the tests, when
 * that is not root), from copies of its classes any user can read, and the paths a user's machine
 * takes run for real: Chromium's renderers in namespaces of their own, bubblewrap unprivileged.
 */
class UnprivilegedIT {

  private static final long NOBODY = 65534;

  static Path base;
  static ServiceProcess service;
  static StewardClient ui;
  static StewardClient agent;
  static HttpServer pages;
  static Path files;

  @BeforeAll
  static void start() throws Exception {
    assertTrue(
        Files.isExecutable(Path.of("/usr/bin/chromium")),
        "this test needs Debian's chromium (./steward test installs it)");
    assertTrue(
        Files.isExecutable(Path.of("/usr/bin/bwrap")),
        "this test needs bubblewrap (./steward test installs it)");
    boolean root = Privilege.root();
    base = Files.createTempDirectory(Path.of("/tmp"), "steward-unprivileged-");
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path repo = ServiceProcess.repo();
    List<String> classPath = new ArrayList<>();
    for (String module : List.of("automation-service", "shared-protocol", "mcp-front")) {
      Path to = base.resolve("classes").resolve(module);
      copyTree(repo.resolve(module).resolve("target/classes"), to);
      classPath.add(to.toString());
    }
    Path lib = Files.createDirectories(base.resolve("lib"));
    String[] jars = Files.readString(repo.resolve("automation-service/target/runtime.classpath"))
        .trim()
        .split(":");
    for (int i = 0; i < jars.length; i++) {
      Path jar = Path.of(jars[i]);
      Path to = lib.resolve(i + "-" + jar.getFileName()); // two artifacts may share a file name
      try {
        Files.createLink(to, jar);
      } catch (IOException | UnsupportedOperationException e) {
        Files.copy(jar, to);
      }
      classPath.add(to.toString());
    }
    Path modules = base.resolve("node_modules");
    copyTree(repo.resolve("mcp-bridge/src/test/node/node_modules"), modules);

    // Only what the service's user writes is theirs; the copies above stay root's (a hard link
    // shares its owner with the original, which must not change).
    Path home = Files.createDirectories(base.resolve("home/config"));
    Path userHome = Files.createDirectories(base.resolve("user"));
    files = Files.createDirectories(base.resolve("files"));
    Files.writeString(files.resolve("note.txt"), "written before the service started\n");
    pages = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    pages.createContext("/", ex -> {
      byte[] body = "<title>Page</title><body>a page read in a sandboxed renderer</body>"
          .getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    pages.start();
    PolicyDocument doc = PolicyDocument.defaults()
        .withPaths(List.of(new PolicyDocument.PathRoot(files.toString(), "read_write")))
        .withHosts(new PolicyDocument.Hosts(List.of("127.0.0.1"), true))
        .withCode(new PolicyDocument.Code(true, false, "~/code"))
        .withMcpServers(Map.of(
            "fs",
            PolicyDocument.McpServer.command(
                "node",
                List.of(
                    modules
                        .resolve("@modelcontextprotocol/server-filesystem/dist/index.js")
                        .toString(),
                    files.toString()),
                Map.of())));
    Files.writeString(home.resolve("policy.json"), Json.write(doc));
    Path serviceHome = home.getParent();
    if (root) {
      for (Path own : List.of(
          serviceHome,
          home,
          home.resolve("policy.json"),
          userHome,
          files,
          files.resolve("note.txt"))) chown(own);
    }

    List<String> command = new ArrayList<>();
    if (root) {
      // setpriv execs (runuser forks): the service keeps the pid the test started.
      command.addAll(
          List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--"));
    }
    command.addAll(List.of(
        "env",
        "HOME=" + userHome,
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-cp",
        String.join(":", classPath),
        "dev.steward.service.ServiceMain"));
    service = ServiceProcess.start(
        command,
        serviceHome,
        userHome,
        List.of(),
        Map.of("JAVA_TOOL_OPTIONS", ServiceProcess.NO_WARMUP + " -Duser.home=" + userHome));
    ui = service.client(Role.UI);
    agent = service.client(Role.AGENT);
  }

  @AfterAll
  static void stop() throws IOException {
    if (ui != null) ui.close();
    if (agent != null) agent.close();
    if (service != null) service.close();
    if (pages != null) pages.stop(0);
    if (base != null) Trees.delete(base);
  }

  @Test
  void the_service_runs_as_a_user_who_is_not_root() throws IOException {
    assertNotEquals(0L, uid(service.process.pid()));
  }

  @Test
  void chromium_keeps_its_own_sandbox() throws IOException {
    ToolResult r = TestService.exec(
        agent,
        "browser.open_url",
        args("url", "http://127.0.0.1:" + pages.getAddress().getPort() + "/page"));
    assertTrue(r.ok(), () -> Json.write(r));
    assertEquals("a page read in a sandboxed renderer", r.value().path("text").asText());

    List<ProcessHandle> chromium = descendants("chromium");
    assertFalse(chromium.isEmpty(), "no Chromium below the service");
    for (ProcessHandle p : chromium) {
      assertFalse(
          cmdline(p.pid()).contains("--no-sandbox"), "started without its sandbox: " + p.pid());
    }
    String serviceUsers = namespace(service.process.pid(), "user");
    List<ProcessHandle> renderers = chromium.stream()
        .filter(p -> cmdline(p.pid()).contains("--type=renderer"))
        .toList();
    assertFalse(renderers.isEmpty(), "no renderer below the service");
    for (ProcessHandle renderer : renderers) {
      assertNotEquals(
          serviceUsers,
          namespace(renderer.pid(), "user"),
          "a renderer shares the service's user namespace: Chromium's sandbox is off");
    }
  }

  @Test
  void an_mcp_server_runs_in_bubblewrap_as_the_user() throws Exception {
    Mcp.Server fs = running("fs");
    assertEquals(Boolean.TRUE, fs.sandboxed(), "the server is not sandboxed: " + fs);
    ui.call(Mcp.ACCEPT, new Mcp.AcceptParams("fs", fs.shown()), Mcp.AcceptResult.class);
    ToolResult r = TestService.exec(
        agent, "mcp.fs.read_text_file", args("path", files.resolve("note.txt").toString()));
    assertTrue(r.ok(), () -> Json.write(r));
    assertTrue(Json.write(r.value()).contains("written before the service started"));

    List<ProcessHandle> node = descendants("node").stream()
        .filter(p -> cmdline(p.pid()).contains("server-filesystem"))
        .toList(); // not Playwright's driver, also a node program
    assertFalse(node.isEmpty(), "no server process below the service");
    long uid = uid(service.process.pid());
    for (ProcessHandle p : node) {
      assertEquals(uid, uid(p.pid()), "the server runs as another user");
      assertNotEquals(
          namespace(service.process.pid(), "pid"),
          namespace(p.pid(), "pid"),
          "the server shares the service's process namespace: bubblewrap did not start it");
    }
  }

  @Test
  void a_code_run_sees_its_workspace_and_not_the_services_folders() {
    Path config = service.home.resolve("config");
    ToolResult r = TestService.execConfirmed(
        ui,
        agent,
        "code.run",
        args(
            "language",
            "python",
            "code",
            "import os\nopen('made.txt', 'w').write('x')\nprint(os.path.exists('" + config
                + "'), os.path.exists('" + files + "'))"));
    assertTrue(r.ok(), () -> Json.write(r));
    JsonNode v = r.value();
    assertEquals(0, v.path("exit_code").asInt(), () -> Json.write(v));
    assertEquals("False False", v.path("stdout").asText().trim());
    assertTrue(Json.write(v.path("files")).contains("made.txt"), () -> Json.write(v));
  }

  private static Mcp.Server running(String name) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    Mcp.Server last = null;
    while (System.nanoTime() < deadline) {
      last = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class).servers().stream()
          .filter(s -> s.name().equals(name))
          .findFirst()
          .orElseThrow();
      if (last.state().equals("running") && !last.tools().isEmpty()) return last;
      Thread.sleep(50);
    }
    throw new AssertionError("the server never ran: " + last);
  }

  /** The service's descendants whose program's name contains {@code program}. */
  private static List<ProcessHandle> descendants(String program) {
    return ProcessHandle.of(service.process.pid())
        .orElseThrow()
        .descendants()
        .filter(p -> p.info().command().map(c -> c.contains(program)).orElse(false))
        .toList();
  }

  private static String cmdline(long pid) {
    return ServiceProcess.cmdline(pid);
  }

  private static String namespace(long pid, String kind) {
    try {
      return Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/" + kind)).toString();
    } catch (IOException e) {
      throw new AssertionError("cannot read the " + kind + " namespace of " + pid, e);
    }
  }

  private static long uid(long pid) throws IOException {
    Optional<String> line = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
        .filter(l -> l.startsWith("Uid:"))
        .findFirst();
    return Long.parseLong(line.orElseThrow().split("\\s+")[1]);
  }

  private static void chown(Path p) throws IOException {
    Files.setAttribute(p, "unix:uid", (int) NOBODY);
    Files.setAttribute(p, "unix:gid", (int) NOBODY);
  }

  /** Hard links where the file system allows them (instant), else a copy. */
  private static void copyTree(Path from, Path to) throws IOException, InterruptedException {
    Files.createDirectories(to.getParent());
    if (run("cp", "-al", from.toString(), to.toString()) == 0) return;
    run("rm", "-rf", to.toString());
    assertEquals(0, run("cp", "-a", from.toString(), to.toString()), "copying " + from);
  }

  private static int run(String... command) throws IOException, InterruptedException {
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }
}
