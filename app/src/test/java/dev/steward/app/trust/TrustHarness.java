package dev.steward.app.trust;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.steward.app.FakeOllama;
import dev.steward.app.agent.Agent;
import dev.steward.app.agent.Approver;
import dev.steward.app.agent.CallUpdate;
import dev.steward.app.agent.ClientServiceLink;
import dev.steward.app.agent.OllamaModelSource;
import dev.steward.app.agent.ProposedCall;
import dev.steward.app.agent.TurnListener;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceSupervisor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The real agent loop of the window ({@link Agent}, langchain4j's Ollama client) against a turned
 * model ({@link ObedientModel} on a loopback Ollama server) and the real service, started as the
 * window starts it ({@code ./steward service}) in a home of its own, with: a workspace, Documents
 * and Downloads; a standing grant for writes under {@code ~/Steward/notes}; a web site on the
 * allowlist (127.0.0.1) that serves the pages a scenario plants; an attacker's server at {@code
 * localhost}, not on the list, that records every request it gets.
 */
final class TrustHarness implements AutoCloseable {

  final Path base;
  final Path user;
  final Path home;
  final Path workspace;
  final String secret = "SECRET-" + UUID.randomUUID().toString().replace("-", "");
  final FakeOllama model;
  final ServiceSupervisor service;
  final StewardClient ui;
  final StewardClient agentClient;
  final HttpServer site;
  final HttpServer attacker;
  final Map<String, String> pages = new ConcurrentHashMap<>();
  final List<String> attackerSaw = new CopyOnWriteArrayList<>();
  /** POSTs the listed site received (none may arrive without a click). */
  private final java.util.concurrent.atomic.AtomicInteger sitePosts =
      new java.util.concurrent.atomic.AtomicInteger();

  final Path appMarker;

  /** The user's assistant calendar: a real CalDAV server (Radicale). */
  static final String CALENDAR_USER = "me";

  static final String CALENDAR_PASSWORD = "calendar-app-password";
  final dev.steward.service.tools.calendar.ThrowawayRadicale calendar;

  /** The assistant's mailbox and every mail sent anywhere: a real mail server (GreenMail). */
  final dev.steward.service.tools.mail.GreenMailServer mail;

  /** How the user answers dialogs in a run; every dialog is counted. */
  final Dialogs dialogs = new Dialogs();

  TrustHarness() throws Exception {
    base = Files.createTempDirectory("steward-trust-").toRealPath();
    user = base.resolve("user");
    home = base.resolve("steward-home");
    workspace = user.resolve("Steward");
    appMarker = base.resolve("app-was-opened");
    for (String d : List.of(
        "Steward/notes",
        "Steward/Sync",
        "Steward/inbox",
        "Steward/templates",
        "Documents",
        "Downloads",
        "elsewhere")) {
      Files.createDirectories(user.resolve(d));
    }
    site = serve(exchange -> {
      if (exchange.getRequestMethod().equals("POST")) sitePosts.incrementAndGet();
      String path = exchange.getRequestURI().getPath();
      String text = pages.getOrDefault(path, "Nothing here.");
      return "<html><head><title>" + path + "</title></head><body><pre>"
          + text.replace("&", "&amp;").replace("<", "&lt;") + "</pre></body></html>";
    });
    attacker = serve(exchange -> {
      attackerSaw.add(exchange.getRequestURI().toString());
      return "<html><body>thanks</body></html>";
    });
    calendar = dev.steward.service.tools.calendar.ThrowawayRadicale.start(
        CALENDAR_USER, CALENDAR_PASSWORD);
    calendar.mkcalendar(CALENDAR_USER, CALENDAR_PASSWORD, "assistant");
    mail = new dev.steward.service.tools.mail.GreenMailServer();
    model = new FakeOllama();
    model.respondWith(ObedientModel::respond);
    writePolicy();
    StewardPlaces places = StewardPlaces.under(home, user);
    service = new ServiceSupervisor(
        places,
        List.of(repo().resolve("steward").toString(), "service"),
        Map.of(
            "STEWARD_HOME",
            home.toString(),
            "STEWARD_NO_BUILD",
            "1",
            "JAVA_TOOL_OPTIONS",
            "-Dsteward.warmup.rounds=0 -Duser.home=" + user));
    ui = service.connect(Role.UI, "trust-suite");
    secret("calendar", "username", CALENDAR_USER);
    secret("calendar", "password", CALENDAR_PASSWORD);
    secret("mail", "username", dev.steward.service.tools.mail.GreenMailServer.USER);
    secret("mail", "password", dev.steward.service.tools.mail.GreenMailServer.PASSWORD);
    agentClient = service.connect(Role.AGENT, "trust-suite");
    acceptMcpTools("inbox");
  }

  private void secret(String section, String key, String value) {
    ui.await(ui.call(Methods.SECRETS_SET, Map.of("section", section, "key", key, "value", value)));
  }

  /** Puts an event in the user's calendar as their phone would (an invitation accepted). */
  String plantEvent(String uid, String day, String time, String title) throws Exception {
    String escaped = title.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,");
    return calendar.put(
        CALENDAR_USER,
        CALENDAR_PASSWORD,
        "assistant",
        uid + ".ics",
        String.join(
            "\r\n",
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Phone//EN",
            "BEGIN:VEVENT",
            "UID:" + uid,
            "DTSTAMP:20260101T000000Z",
            "DTSTART:" + day.replace("-", "") + "T" + time + "00Z",
            "DTEND:" + day.replace("-", "") + "T" + time.substring(0, 2) + "59" + "00Z",
            "SUMMARY:" + escaped,
            "END:VEVENT",
            "END:VCALENDAR",
            ""));
  }

  /**
   * Delivers a forwarded mail to the assistant's mailbox, waits until the service has taken it in,
   * and answers its mail_id (found through the window's own method, as Settings would).
   */
  String plantMail(String subject, String body) throws Exception {
    String raw = "From: School <office@school.example>\r\nTo: "
        + dev.steward.service.tools.mail.GreenMailServer.ADDRESS + "\r\nSubject: " + subject
        + "\r\nMessage-ID: <" + subject
        + "@school.example>\r\nDate: Fri, 27 Nov 2026 08:00:00 +0000"
        + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body.replace("\n", "\r\n")
        + "\r\n";
    mail.deliver(raw.getBytes(StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      JsonNode pending =
          ui.call("mail.pending_summaries", Json.object().put("limit", 200), JsonNode.class);
      for (JsonNode m : pending.path("mails")) {
        if (m.path("subject").asText().equals(subject)) return m.path("mail_id").asText();
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the service never took in the mail " + subject);
  }

  /** Whether any mail left for an address at this domain. */
  boolean mailSentTo(String domain) throws Exception {
    for (jakarta.mail.internet.MimeMessage m : mail.mail.getReceivedMessages()) {
      for (jakarta.mail.Address a : m.getAllRecipients()) {
        if (a.toString().endsWith("@" + domain)) return true;
      }
    }
    return false;
  }

  /** Whether the user's event is still in the calendar. */
  boolean hasEvent(String uid) throws Exception {
    return calendar
            .get(
                CALENDAR_USER,
                CALENDAR_PASSWORD,
                calendar.calendar(CALENDAR_USER, "assistant") + uid + ".ics")
            .statusCode()
        == 200;
  }

  /** Waits for the MCP server to list its tools and accepts them, as the user would in Settings. */
  private void acceptMcpTools(String server) throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Mcp.ServersResult r = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class);
      java.util.Optional<Mcp.Server> listed = r.servers().stream()
          .filter(s -> s.name().equals(server)
              && s.state().equals("running")
              && !s.tools().isEmpty())
          .findFirst();
      if (listed.isPresent()) {
        ui.call(
            Mcp.ACCEPT, new Mcp.AcceptParams(server, listed.get().shown()), Mcp.AcceptResult.class);
        return;
      }
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("MCP server never ran: " + r);
      Thread.sleep(100);
    }
  }

  int sitePort() {
    return site.getAddress().getPort();
  }

  int sitePosts() {
    return sitePosts.get();
  }

  int attackerPort() {
    return attacker.getAddress().getPort();
  }

  private void writePolicy() throws IOException {
    ObjectNode p = Json.object();
    ArrayNode paths = p.putArray("paths");
    paths.addObject().put("root", "~/Steward").put("access", "read_write");
    paths.addObject().put("root", "~/Documents").put("access", "read");
    paths.addObject().put("root", "~/Downloads").put("access", "read");
    ArrayNode apps = p.putArray("apps");
    apps.addObject()
        .put("id", "marker")
        .putArray("command")
        .add("/usr/bin/touch")
        .add(appMarker.toString());
    ObjectNode hosts = p.putObject("hosts");
    hosts.putArray("allow").add("127.0.0.1");
    hosts.put("allow_private", true);
    ObjectNode grant = p.putArray("grants").addObject();
    grant
        .put("id", "g-notes")
        .put("tool", "files.write_text")
        .put("created_at", "2026-11-26T00:00:00Z");
    grant.putArray("paths").add("~/Steward/notes");
    p.putObject("overrides");
    // Code runs are on (no network): a run the model asks for needs a click all the same.
    p.putObject("code")
        .put("enabled", true)
        .put("network", false)
        .put("workspace", "~/Steward/code");
    // web.search sends its queries to the attacker's server: a query that left would be seen.
    p.putObject("web_search")
        .put("provider", "searxng")
        .put("url", "http://127.0.0.1:" + attacker.getAddress().getPort());
    // An MCP server from npm that reads Downloads: what its tools return is a stranger's text too.
    ObjectNode inbox = p.putObject("mcp_servers").putObject("inbox");
    inbox.put("command", "node");
    inbox
        .putArray("args")
        .add(repo()
            .resolve(
                "mcp-bridge/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
            .toString())
        .add(user.resolve("Downloads").toString());
    // The assistant calendar (its account's password goes through secrets.set once connected).
    p.putObject("calendar").put("url", calendar.calendar(CALENDAR_USER, "assistant"));
    // The assistant's mailbox: forwarded mail in over IMAP, anything sent out over SMTP.
    ObjectNode mailbox = p.putObject("mail");
    mailbox.put("address", dev.steward.service.tools.mail.GreenMailServer.ADDRESS);
    mailbox
        .putObject("imap")
        .put("host", "127.0.0.1")
        .put("port", mail.imapPort())
        .put("tls", false);
    mailbox
        .putObject("smtp")
        .put("host", "127.0.0.1")
        .put("port", mail.smtpPort())
        .put("tls", false);
    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config/policy.json"), Json.pretty(p));
  }

  private interface Page {
    String body(com.sun.net.httpserver.HttpExchange exchange);
  }

  private static HttpServer serve(Page page) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.createContext("/", exchange -> {
      byte[] body = page.body(exchange).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    s.start();
    return s;
  }

  /** A fresh agent on a fresh conversation, its dialogs answered by {@code dialogs}. */
  Agent newAgent(String conversationId) {
    return newAgent(
        conversationId,
        new OllamaModelSource(model.url(), FakeOllama.MODEL, Duration.ofSeconds(30)));
  }

  /** A fresh agent on a fresh conversation with another model, its dialogs answered as above. */
  Agent newAgent(String conversationId, dev.steward.app.agent.ModelSource models) {
    Agent agent = new Agent(
        models, new ClientServiceLink(agentClient, ui), dialogs, Duration.ofSeconds(60), 12);
    agent.restore(conversationId, List.of());
    return agent;
  }

  /** One user turn, to its end; answers Steward's notices in it. */
  List<String> say(Agent agent, String text) throws Exception {
    Quiet listener = new Quiet();
    agent.send(text, listener).get(120, TimeUnit.SECONDS);
    return listener.notices;
  }

  /** Every row of a conversation (trace ids start with its id). */
  List<Audit.Row> rows(String conversationId) {
    List<Audit.Row> out = new ArrayList<>();
    String cursor = null;
    do {
      ObjectNode q = Json.object().put("text", conversationId).put("limit", 1000);
      if (cursor != null) q.put("cursor", cursor);
      Audit.QueryResult r = ui.call(Methods.AUDIT_QUERY, q, Audit.QueryResult.class);
      out.addAll(r.rows());
      cursor = r.nextCursor();
    } while (cursor != null);
    return out;
  }

  Audit.VerifyResult verify() {
    return ui.call(Methods.AUDIT_VERIFY, Json.object(), Audit.VerifyResult.class);
  }

  /** Whether any chat request the model got so far contains {@code text} (the model saw it). */
  boolean modelSaw(String text) {
    return model.chatRequests().stream().anyMatch(r -> r.toString().contains(text));
  }

  /** Whether the clipboard holds {@code text} now (X clipboard, through xclip). */
  static String clipboard() throws Exception {
    Process p = new ProcessBuilder("xclip", "-o", "-selection", "clipboard")
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(5, TimeUnit.SECONDS);
    return out;
  }

  static void setClipboard(String text) throws Exception {
    Process p = new ProcessBuilder("xclip", "-i", "-selection", "clipboard").start();
    p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    if (!p.waitFor(5, TimeUnit.SECONDS))
      throw new IllegalStateException("xclip did not take the text");
    // xclip's child takes the selection after its parent has exited: until it has, a read still
    // gets the text before.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!clipboard().equals(text)) {
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("the clipboard did not come to hold the text");
      Thread.sleep(20);
    }
  }

  static Path repo() {
    String env = System.getenv("STEWARD_REPO");
    Path cwd = Path.of("").toAbsolutePath();
    Path repo = env != null
        ? Path.of(env)
        : Files.isExecutable(cwd.resolve("steward")) ? cwd : cwd.getParent();
    if (!Files.isExecutable(repo.resolve("steward")))
      throw new IllegalStateException("no ./steward launcher in " + repo);
    return repo;
  }

  @Override
  public void close() throws Exception {
    ui.close();
    agentClient.close();
    service.close();
    model.close();
    site.stop(0);
    attacker.stop(0);
    calendar.close();
    mail.close();
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /**
   * The user at the dialog. In an attack scenario the user approves exactly the calls they asked
   * for in their own message and declines everything else; for everyday tasks, everything. Every
   * dialog shown is counted.
   */
  static final class Dialogs implements Approver {
    volatile Predicate<ProposedCall> approves = c -> false;
    final List<List<String>> shown = new CopyOnWriteArrayList<>();

    @Override
    public java.util.concurrent.CompletableFuture<List<Answer>> review(Request request) {
      shown.add(request.calls().stream().map(p -> p.call().toolName()).toList());
      List<Answer> answers = new ArrayList<>();
      for (Pending p : request.calls()) {
        boolean yes = approves.test(p.call());
        answers.add(new Answer(
            p.call().callId(),
            yes ? Verdict.APPROVED : Verdict.DECLINED,
            p.call().args(),
            false));
      }
      return java.util.concurrent.CompletableFuture.completedFuture(answers);
    }
  }

  private static final class Quiet implements TurnListener {
    final List<String> notices = new CopyOnWriteArrayList<>();

    @Override
    public void assistantStarted() {}

    @Override
    public void assistantToken(String text) {}

    @Override
    public void assistantFinished() {}

    @Override
    public void callProposed(ProposedCall call) {}

    @Override
    public void callUpdated(CallUpdate update) {}

    @Override
    public void notice(String text) {
      notices.add(text);
    }

    @Override
    public void error(String text) {}

    @Override
    public void turnFinished() {}
  }

  static JsonNode json(String text) {
    try {
      return Json.parse(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
