package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The browser's guard against what Chromium does on its own (issue 15, route 4): a form post's
 * redirect, a page's WebSocket, a name that changes its address between the check and the
 * connection. A "public" site needs an address that is not private and yet reaches this machine:
 * 192.0.2.10 (TEST-NET-1) is added to the loopback interface for this class (the tests run as root
 * in CI, through ./steward test). Private hosts are not allowed; the private server on 127.0.0.1
 * records every request it gets — none may come.
 */
class BrowserGuardIT {

  static final String PUBLIC = "192.0.2.10";
  static TestService t;
  static StewardClient agent;
  static HttpServer site;
  static HttpServer inside;
  static final List<String> insideHits = new CopyOnWriteArrayList<>();
  static final List<String> pixelHits = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    Process p = new ProcessBuilder("ip", "addr", "add", PUBLIC + "/32", "dev", "lo")
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(
        p.waitFor() == 0 || out.contains("File exists") || out.contains("already assigned"),
        "this test adds " + PUBLIC
            + " to the loopback interface and needs root for it (CI runs ./steward test as root): "
            + out);
    site = HttpServer.create(new InetSocketAddress(InetAddress.getByName(PUBLIC), 0), 0);
    site.setExecutor(Executors.newCachedThreadPool());
    site.createContext("/", BrowserGuardIT::serveSite);
    site.start();
    inside = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    inside.createContext("/", ex -> {
      insideHits.add(ex.getRequestMethod() + " " + ex.getRequestURI());
      respond(ex, 200, "the inside", "text/plain");
    });
    inside.start();
    t = TestService.start(
        p2 -> p2.withHosts(new PolicyDocument.Hosts(List.of(PUBLIC, "rebind.example"), false)));
    agent = t.client(Role.AGENT);
  }

  @AfterAll
  static void stop() throws Exception {
    t.close();
    site.stop(0);
    inside.stop(0);
    new ProcessBuilder("ip", "addr", "del", PUBLIC + "/32", "dev", "lo").start().waitFor();
  }

  @BeforeEach
  void clear() {
    insideHits.clear();
  }

  static String insideUrl(String path) {
    return "http://127.0.0.1:" + inside.getAddress().getPort() + path;
  }

  private static void serveSite(HttpExchange ex) throws IOException {
    String ws = "ws://127.0.0.1:" + inside.getAddress().getPort() + "/socket";
    switch (ex.getRequestURI().getPath()) {
      case "/form" ->
        respond(
            ex,
            200,
            "<title>Form</title><body>sending<form id=f method=post action=/post><input name=a value=1></form>"
                + "<script>document.getElementById('f').submit()</script></body>",
            "text/html");
      case "/post" -> {
        ex.getRequestBody().readAllBytes();
        ex.getResponseHeaders().add("Location", insideUrl("/admin"));
        respond(ex, 307, "", "text/plain");
      }
      case "/ws" ->
        respond(
            ex,
            200,
            "<title>Socket</title><body>socket<script>var s = new WebSocket('" + ws
                + "'); s.onerror = () => document.body.append(' closed');</script></body>",
            "text/html");
      case "/page" ->
        respond(
            ex,
            200,
            "<title>Rebind</title><body>the public page<script>setTimeout(() => fetch('/secret').then(r => r.text())"
                + ".then(t => document.body.append(' ' + t)), 50)</script></body>",
            "text/html");
      case "/secret" -> respond(ex, 200, "public-answer", "text/plain");
      case "/tracked" ->
        respond(
            ex,
            200,
            "<title>Tracked</title><body>a page with a tracker<img src=\"http://tracker.example:"
                + site.getAddress().getPort() + "/pixel?" + ex.getRequestURI().getRawQuery()
                + "\"><img src=\"/hop?" + ex.getRequestURI().getRawQuery() + "\"></body>",
            "text/html");
      case "/hop" -> {
        // The approved host's own image, redirected: the browser follows it without the route.
        ex.getResponseHeaders()
            .add(
                "Location",
                "http://tracker.example:" + site.getAddress().getPort() + "/pixel?hop-"
                    + ex.getRequestURI().getRawQuery());
        respond(ex, 302, "", "text/plain");
      }
      case "/pixel" -> {
        pixelHits.add(ex.getRequestURI().getRawQuery());
        respond(ex, 200, "GIF89a", "image/gif");
      }
      default -> respond(ex, 404, "no", "text/plain");
    }
  }

  private static void respond(HttpExchange ex, int status, String body, String type)
      throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", type + "; charset=utf-8");
    ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }

  private static String site(String path) {
    return "http://" + PUBLIC + ":" + site.getAddress().getPort() + path;
  }

  @Test
  void a_form_post_redirected_inside_the_network_is_stopped() throws Exception {
    ToolResult r =
        exec(agent, id(), "browser.open_url", args("url", site("/form"), "timeout_s", 10), null);
    Thread.sleep(300);
    assertEquals(List.of(), insideHits, "the browser followed a post's redirect to 127.0.0.1");
    String said = r.ok() ? r.value().path("blocked").toString() : r.error().message();
    assertTrue(said.contains("127.0.0.1"), said);
  }

  @Test
  void a_page_cannot_open_a_websocket_inside_the_network() throws Exception {
    ToolResult r =
        exec(agent, id(), "browser.open_url", args("url", site("/ws"), "timeout_s", 10), null);
    assertTrue(r.ok(), String.valueOf(r.error()));
    Thread.sleep(500);
    assertEquals(List.of(), insideHits, "the page's WebSocket reached 127.0.0.1");
    assertTrue(
        r.value().path("blocked").toString().contains("127.0.0.1"), r.value().toString());
  }

  @Test
  void a_name_is_looked_up_once_a_visit_and_the_browser_goes_only_where_it_was_checked()
      throws Exception {
    // A name that answers a public address first and then one inside the network (DNS
    // rebinding). The browser resolves nothing itself: the page loads only through the guard's
    // lookup (the system cannot resolve rebind.example at all), and every later connection of
    // the visit goes to the address that was checked.
    AtomicInteger asked = new AtomicInteger();
    t.names.put("rebind.example", () ->
        new InetAddress[] {loopbackOr(asked.incrementAndGet() <= 2 ? PUBLIC : "127.0.0.1")});
    ToolResult r = exec(
        agent,
        id(),
        "browser.open_url",
        args(
            "url",
            "http://rebind.example:" + site.getAddress().getPort() + "/page",
            "timeout_s",
            10),
        null);
    assertTrue(r.ok(), String.valueOf(r.error()));
    Thread.sleep(300);
    assertTrue(
        r.value().path("text").asText().contains("the public page"), r.value().toString());
    assertEquals(List.of(), insideHits);
    assertFalse(
        t.lookups.stream().filter("rebind.example"::equals).count() > 2,
        "looked up once by the gate, once for the visit: " + t.lookups);
  }

  @Test
  void unasked_after_untrusted_content_a_pages_own_requests_stay_with_the_allowed_hosts()
      throws Exception {
    // A host that is not on the list but public: a tracker's, as far as the guard can tell.
    t.names.put("tracker.example", () -> new InetAddress[] {loopbackOr(PUBLIC)});
    pixelHits.clear();
    String conversation = id();
    ToolResult clean = visit(conversation, "/tracked?d=first");
    assertTrue(clean.ok(), String.valueOf(clean.error()));
    Thread.sleep(300);
    assertEquals(
        java.util.Set.of("d=first", "hop-d=first"),
        java.util.Set.copyOf(pixelHits),
        "a clean conversation's page loads as it is");
    // The page it read has tainted the conversation: the next visit, unasked, keeps its
    // requests to the allowed hosts, so what the model put in the address reaches no one else.
    ToolResult kept = visit(conversation, "/tracked?d=secret");
    assertTrue(kept.ok(), String.valueOf(kept.error()));
    Thread.sleep(300);
    assertEquals(
        java.util.Set.of("d=first", "hop-d=first"),
        java.util.Set.copyOf(pixelHits),
        "the tracker heard nothing of the second visit, not even through a redirect");
    assertTrue(
        kept.value().path("blocked").toString().contains("tracker.example"),
        kept.value().toString());
    assertTrue(kept.value().path("text").asText().contains("a page with a tracker"));
  }

  /** A visit of {@code path} on the public site, in {@code conversation}. */
  private static ToolResult visit(String conversation, String path) {
    return agent.execute(new dev.steward.protocol.method.Execute.Params(
        id(),
        id(),
        "browser.open_url",
        args("url", site(path), "timeout_s", 10),
        null,
        null,
        conversation));
  }

  private static InetAddress loopbackOr(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
