package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.ServiceProcess;
import dev.steward.service.util.Trees;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When the browser runs: started while a visit waits for the user's click, with nothing loaded
 * before it; stopped once unused for a while, and started again by the next visit. Each test has
 * a service of its own, so that the Chromium found is its calls'.
 */
class BrowserAheadIT {

  Path base;
  HttpServer pages;
  final AtomicInteger hits = new AtomicInteger();

  @BeforeEach
  void pages() throws Exception {
    assertTrue(
        Files.isExecutable(Path.of("/usr/bin/chromium")),
        "the browser tests need Debian's chromium (./steward test installs it)");
    base = Files.createTempDirectory("steward-browser-ahead-");
    pages = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] page =
        "<title>Ahead</title><body>read after the click</body>".getBytes(StandardCharsets.UTF_8);
    pages.createContext("/", ex -> {
      if (ex.getRequestURI().getPath().equals("/page")) hits.incrementAndGet();
      ex.sendResponseHeaders(200, page.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(page);
      }
    });
    pages.start();
  }

  @AfterEach
  void stop() throws Exception {
    pages.stop(0);
    Trees.delete(base);
  }

  /** A service that may open pages on 127.0.0.1 without a click, and elsewhere with one. */
  private ServiceProcess service(String javaOptions) throws Exception {
    Path home = base.resolve("home");
    Path user = Files.createDirectories(base.resolve("user"));
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/policy.json"),
        Json.write(PolicyDocument.defaults()
            .withHosts(new PolicyDocument.Hosts(List.of("127.0.0.1"), true))));
    return ServiceProcess.start(
        List.of(ServiceProcess.repo().resolve("steward").toString(), "service"),
        home,
        user,
        List.of(),
        Map.of(
            "JAVA_TOOL_OPTIONS",
            ServiceProcess.NO_WARMUP + " -Duser.home=" + user + " " + javaOptions));
  }

  @Test
  void the_browser_starts_while_the_dialog_is_up_and_loads_nothing_before_the_click()
      throws Exception {
    try (ServiceProcess service = service("");
        StewardClient ui = service.client(Role.UI);
        StewardClient agent = service.client(Role.AGENT)) {
      assertEquals(List.of(), browser(service, ""), "no browser before any visit");
      String trace = id();
      // "localhost" is not on the list: the call needs the user's click
      JsonNode a = args("url", "http://localhost:" + pages.getAddress().getPort() + "/page");
      Preflight.Result p = agent.preflight(trace, "browser.open_url", a);
      assertEquals(Preflight.CONFIRM, p.decision());

      // The visit's context ready (its blank page has a renderer), and a moment more in which a
      // page could have loaded if anything let it.
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (browser(service, "--type=renderer").isEmpty() && Instant.now().isBefore(deadline))
        Thread.sleep(50);
      assertTrue(
          !browser(service, "--type=renderer").isEmpty(),
          "the browser did not start while the call waited: " + browser(service, ""));
      Thread.sleep(500);
      assertEquals(0, hits.get(), "a page was loaded before the click");

      String token = ui.grant(new Grant.Params(
              trace, List.of(new Grant.Call("browser.open_url", a)), null, null, 60, null))
          .confirmToken();
      ToolResult r = exec(agent, trace, "browser.open_url", a, token);
      assertTrue(r.ok(), String.valueOf(r.error()));
      assertEquals("Ahead", r.value().get("title").asText());
      assertEquals(1, hits.get());
    }
  }

  @Test
  void a_browser_unused_for_a_while_stops_with_its_driver_and_the_next_visit_starts_it_again()
      throws Exception {
    try (ServiceProcess service = service("-Dsteward.browser.idle.seconds=5");
        StewardClient agent = service.client(Role.AGENT)) {
      JsonNode a = args("url", "http://127.0.0.1:" + pages.getAddress().getPort() + "/page");
      assertTrue(exec(agent, id(), "browser.open_url", a, null).ok());
      assertFalse(browser(service, "").isEmpty(), "no browser after a visit");
      assertFalse(driver(service).isEmpty(), "no driver after a visit");

      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (!(browser(service, "").isEmpty() && driver(service).isEmpty())
          && Instant.now().isBefore(deadline)) Thread.sleep(100);
      assertEquals(List.of(), browser(service, ""), "the idle browser was not stopped");
      assertEquals(List.of(), driver(service), "the idle browser's driver was not stopped");

      ToolResult again = exec(agent, id(), "browser.open_url", a, null);
      assertTrue(again.ok(), String.valueOf(again.error()));
      assertEquals("Ahead", again.value().get("title").asText());
      assertEquals(2, hits.get());
    }
  }

  /** Playwright's driver below the service: its Node.js running the driver's script. */
  private static List<Long> driver(ServiceProcess service) {
    return ProcessHandle.of(service.process.pid())
        .orElseThrow()
        .descendants()
        .filter(p -> cmdline(p.pid()).contains("cli.js run-driver"))
        .map(ProcessHandle::pid)
        .toList();
  }

  /**
   * The browser's processes below the service whose command line holds {@code marker}: the one
   * Playwright drives over a pipe, whichever program it is, and those running the same program
   * (its zygote, its renderers).
   */
  private static List<Long> browser(ServiceProcess service, String marker) {
    List<ProcessHandle> below =
        ProcessHandle.of(service.process.pid()).orElseThrow().descendants().toList();
    Set<String> programs = below.stream()
        .filter(p -> cmdline(p.pid()).contains("--remote-debugging-pipe"))
        .flatMap(p -> p.info().command().stream())
        .collect(Collectors.toSet());
    return below.stream()
        .filter(p -> p.info().command().map(programs::contains).orElse(false))
        .filter(p -> cmdline(p.pid()).contains(marker))
        .map(ProcessHandle::pid)
        .toList();
  }

  private static String cmdline(long pid) {
    return ServiceProcess.cmdline(pid);
  }
}
