package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A visit that waits for the user's click has its browser started meanwhile, and nothing loaded
 * before the click. A service of its own, so that the Chromium found is this call's.
 */
class BrowserAheadIT {

  @Test
  void the_browser_starts_while_the_dialog_is_up_and_loads_nothing_before_the_click()
      throws Exception {
    assertTrue(
        Files.isExecutable(Path.of("/usr/bin/chromium")),
        "the browser tests need Debian's chromium (./steward test installs it)");
    Path base = Files.createTempDirectory("steward-browser-ahead-");
    HttpServer pages =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    AtomicInteger hits = new AtomicInteger();
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
    Path home = base.resolve("home");
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/policy.json"),
        Json.write(PolicyDocument.defaults()
            .withHosts(new PolicyDocument.Hosts(List.of("127.0.0.1"), true))));
    try (ServiceProcess service =
            ServiceProcess.start(home, Files.createDirectories(base.resolve("user")));
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
    } finally {
      pages.stop(0);
      Trees.delete(base);
    }
  }

  /**
   * The browser's processes below the service whose command line holds {@code marker}: the one
   * Playwright drives over a pipe, whichever program it is, and those running the same program
   * (its zygote, its renderers).
   */
  private static List<Long> browser(ServiceProcess service, String marker) {
    List<ProcessHandle> below =
        ProcessHandle.of(service.process.pid()).orElseThrow().descendants().toList();
    java.util.Set<String> programs = below.stream()
        .filter(p -> cmdline(p.pid()).contains("--remote-debugging-pipe"))
        .flatMap(p -> p.info().command().stream())
        .collect(java.util.stream.Collectors.toSet());
    return below.stream()
        .filter(p -> p.info().command().map(programs::contains).orElse(false))
        .filter(p -> cmdline(p.pid()).contains(marker))
        .map(ProcessHandle::pid)
        .toList();
  }

  private static String cmdline(long pid) {
    try {
      return new String(
              Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
          .replace('\0', ' ');
    } catch (java.io.IOException e) {
      return ""; // gone
    }
  }
}
