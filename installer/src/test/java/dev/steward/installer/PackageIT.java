package dev.steward.installer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The .deb the build made, installed for real with dpkg: the installed {@code steward-service},
 * started by a user who is not root (as every user starts it; dpkg ran as root), answers {@code
 * tools.list} over its WebSocket and opens a page in Chromium, in Chromium's own sandbox, through
 * the Playwright driver the package ships unpacked; then the package is removed and leaves nothing
 * behind.
 */
class PackageIT {

  @Test
  void theDebInstallsRunsAndRemovesCleanly() throws Exception {
    assertEquals(
        "root", System.getProperty("user.name"), "installing a .deb needs root (CI runs as root)");
    Path target = Path.of(System.getProperty("steward.package.dir"));
    Path deb;
    try (Stream<Path> files = Files.list(target)) {
      deb = files
          .filter(p -> p.getFileName().toString().endsWith(".deb"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no .deb in " + target));
    }
    installDependencies(deb);
    run(List.of("dpkg", "-i", deb.toString()));
    Path base = Files.createTempDirectory("steward-package-");
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    HttpServer pages =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    Process service = null;
    try {
      assertTrue(
          Files.isExecutable(Path.of("/usr/bin/steward")), "the window's launcher is on the PATH");
      assertTrue(
          Files.isExecutable(Path.of("/usr/bin/steward-service")),
          "the service's launcher is on the PATH");
      assertTrue(
          Files.exists(Path.of("/opt/steward/lib/steward-steward.desktop"))
              || desktopEntryInstalled(),
          "a desktop entry is installed");
      // The service starts from the ahead-of-time cache made at build time when the package
      // bundles JDK 25 or later, else from a class-data-sharing archive made here (ADR 29).
      Path aot = Path.of("/opt/steward/lib/app/steward-service.aot");
      boolean bundles25 = runtimeFeature() >= 25;
      assertTrue(
          bundles25
              ? Files.size(aot) > 1_000_000
              : Files.size(Path.of("/opt/steward/lib/app/steward-service.jsa")) > 1_000_000,
          bundles25
              ? "the package carries the service's ahead-of-time cache"
              : "postinst made the service's class-data-sharing archive");
      assertTrue(
          Files.size(Path.of("/opt/steward/lib/app/steward.jsa")) > 1_000_000,
          "postinst made the window's class-data-sharing archive");

      byte[] page =
          "<!doctype html><title>Installed</title><body>served to the packaged browser tool</body>"
              .getBytes(StandardCharsets.UTF_8);
      pages.createContext("/", ex -> {
        ex.sendResponseHeaders(200, page.length);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(page);
        }
      });
      pages.start();
      Path home = base.resolve("home");
      Files.createDirectories(home.resolve("config"));
      Path userHome = Files.createDirectories(base.resolve("user"));
      Files.writeString(
          home.resolve("config/policy.json"),
          "{\"paths\":[{\"root\":\"" + base
              + "\",\"access\":\"read_write\"}],\"apps\":[],\"hosts\":{\"allow\":[\"127.0.0.1\"],\"allow_private\":true},"
              + "\"grants\":[],\"overrides\":{}}");
      for (Path own :
          List.of(home, home.resolve("config"), home.resolve("config/policy.json"), userHome)) {
        Files.setAttribute(own, "unix:uid", NOBODY);
        Files.setAttribute(own, "unix:gid", NOBODY);
      }
      ProcessBuilder pb = new ProcessBuilder(asNobody(userHome, "/usr/bin/steward-service"))
          .redirectErrorStream(true)
          .redirectOutput(base.resolve("service.log").toFile());
      pb.environment().put("STEWARD_HOME", home.toString());
      service = pb.start();
      Path info = home.resolve("run/service.json");
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (!Files.exists(info) && Instant.now().isBefore(deadline) && service.isAlive())
        Thread.sleep(50);
      assertTrue(
          Files.exists(info),
          "the installed service started: " + Files.readString(base.resolve("service.log")));
      String started = Files.readString(base.resolve("service.log"));
      assertFalse(
          started.contains("[aot]") || started.contains("[cds]"),
          "the installed service uses its cache as built, with no complaint: " + started);
      int port = Json.parse(Files.readString(info)).get("port").asInt();
      String secret = Files.readString(home.resolve("config/agent.secret")).strip();
      try (StewardClient agent = StewardClient.connect(Endpoint.loopback(port, secret))) {
        List<String> names = agent.tools().stream().map(ToolDefinition::name).toList();
        assertTrue(
            names.containsAll(List.of(
                "files.list_dir", "files.write_text", "browser.open_url", "clipboard.read")),
            names.toString());
        ToolResult r = agent.execute(new Execute.Params(
            "t",
            "c",
            "browser.open_url",
            Json.mapper()
                .createObjectNode()
                .put("url", "http://127.0.0.1:" + pages.getAddress().getPort() + "/"),
            null,
            null));
        assertTrue(r.ok(), String.valueOf(r.error()));
        assertEquals("Installed", r.value().get("title").asText());
      }
      assertTrue(
          Files.isExecutable(Path.of("/opt/steward/lib/app/playwright-driver/node")),
          "the package ships Playwright's driver unpacked");
      assertFalse(
          Files.exists(home.resolve("data/browser-driver")),
          "the installed service runs the driver it ships and unpacks none of its own");
      assertEquals(NOBODY, uid(service.pid()), "the service runs as the user who started it");
      mcpOverStdio(home, base, userHome);
    } finally {
      if (service != null) {
        service.destroy();
        service.waitFor(10, TimeUnit.SECONDS);
      }
      pages.stop(0);
      run(List.of("dpkg", "-r", "steward"));
      try (Stream<Path> walk = Files.walk(base)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    assertFalse(Files.exists(Path.of("/opt/steward")), "dpkg -r removed the app");
    assertFalse(
        Files.exists(Path.of("/usr/bin/steward"))
            || Files.isSymbolicLink(Path.of("/usr/bin/steward")),
        "the launchers are gone from the PATH");
    assertFalse(Files.exists(Path.of("/usr/bin/steward-service"))
        || Files.isSymbolicLink(Path.of("/usr/bin/steward-service")));
  }

  /**
   * {@code steward-service mcp}, as an MCP client launches it: the first thing on stdout is the
   * answer to {@code initialize} (no JVM warning before it), and {@code tools/list} lists the
   * installed service's tools.
   */
  private static void mcpOverStdio(Path home, Path base, Path userHome) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(asNobody(userHome, "/usr/bin/steward-service", "mcp"))
        .redirectError(base.resolve("mcp.log").toFile());
    pb.environment().put("STEWARD_HOME", home.toString());
    Process bridge = pb.start();
    try {
      OutputStream in = bridge.getOutputStream();
      in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
              + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"package-it\",\"version\":\"1\"}}}\n"
              + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
              + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n")
          .getBytes(StandardCharsets.UTF_8));
      in.flush();
      java.io.BufferedReader out = new java.io.BufferedReader(
          new java.io.InputStreamReader(bridge.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      // The answer to tools/list, past any notification the bridge may send meanwhile.
      String second = out.readLine();
      while (second != null && !second.contains("\"id\":2")) second = out.readLine();
      String log = Files.readString(base.resolve("mcp.log"));
      assertEquals(
          "steward", Json.parse(first).at("/result/serverInfo/name").asText(), first + "\n" + log);
      assertTrue(second.contains("\"files.read_text\""), second + "\n" + log);
      in.close();
      assertTrue(bridge.waitFor(20, TimeUnit.SECONDS), "the bridge ends with its input");
    } finally {
      bridge.destroyForcibly();
    }
  }

  /** The feature release of the runtime the package bundles (its release file). */
  private static int runtimeFeature() throws IOException {
    for (String line : Files.readAllLines(Path.of("/opt/steward/lib/runtime/release"))) {
      if (line.startsWith("JAVA_VERSION="))
        return Integer.parseInt(line.replaceAll("^JAVA_VERSION=\"?(\\d+).*", "$1"));
    }
    throw new IOException("the bundled runtime's release file names no JAVA_VERSION");
  }

  /** The user the installed commands run as: not root, as no user of a desktop is. */
  private static final int NOBODY = 65534;

  /**
   * {@code command} as {@link #NOBODY}, with a home of its own (setpriv execs: the process is the
   * one started here).
   */
  private static List<String> asNobody(Path home, String... command) {
    List<String> out = new java.util.ArrayList<>(List.of(
        "setpriv",
        "--reuid=" + NOBODY,
        "--regid=" + NOBODY,
        "--clear-groups",
        "--",
        "env",
        "HOME=" + home));
    out.addAll(List.of(command));
    return out;
  }

  private static int uid(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("Uid:")) return Integer.parseInt(line.split("\\s+")[1]);
    }
    throw new IOException("no Uid line for " + pid);
  }

  /** The libraries the bundled runtime links against (the package's Depends), from apt when missing. */
  private static void installDependencies(Path deb) throws Exception {
    Process p = new ProcessBuilder("dpkg-deb", "-f", deb.toString(), "Depends").start();
    String depends = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    List<String> missing = new java.util.ArrayList<>();
    for (String dep : depends.split(",")) {
      String name = dep.strip().split("[ (|]")[0];
      if (name.isEmpty()) continue;
      Process check =
          new ProcessBuilder("dpkg", "-s", name).redirectErrorStream(true).start();
      check.getInputStream().readAllBytes();
      if (check.waitFor() != 0) missing.add(name);
    }
    if (missing.isEmpty()) return;
    List<String> install = new java.util.ArrayList<>(List.of("apt-get", "install", "-y", "-qq"));
    install.addAll(missing);
    run(install);
  }

  private static boolean desktopEntryInstalled() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("/usr/share/applications"))) {
      return s.anyMatch(p -> p.getFileName().toString().contains("steward"));
    }
  }

  private static void run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
    assertEquals(0, p.exitValue(), String.join(" ", command) + " failed:\n" + out);
  }
}
