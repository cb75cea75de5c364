package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.TestService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * MCP's Streamable HTTP at {@code /mcp}, driven by the official TypeScript SDK's client: the same
 * tools, gate and audit log as the stdio bridge, behind the WebSocket's checks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpHttpIT {

  static final Path NODE = Path.of(
          System.getenv().getOrDefault("STEWARD_REPO", "../"), "mcp-bridge/src/test/node")
      .toAbsolutePath()
      .normalize();

  TestService t;

  @BeforeAll
  void start() {
    t = TestService.start();
  }

  @AfterAll
  void stop() {
    t.close();
  }

  private String url() {
    return "http://127.0.0.1:" + t.port() + "/mcp";
  }

  /** Runs the SDK's client: what it saw, as it printed it. */
  private JsonNode client(String secret, String calls, String name) throws Exception {
    Process p = new ProcessBuilder(
            "node", NODE.resolve("http-client.mjs").toString(), url(), secret, calls, name)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the client ends");
    assertEquals(0, p.exitValue(), out);
    return Json.parse(out);
  }

  private static String text(JsonNode result) {
    return result.at("/content/0/text").asText();
  }

  @Test
  void anMcpClientsCallsPassTheGateAndAreAuditedUnderItsSession() throws Exception {
    Path notes = t.root.resolve("notes.txt");
    Files.writeString(notes, "hello\n");
    Path secret = t.outside.resolve("secret.txt");
    Files.writeString(secret, "not for you\n");
    String calls = Json.write(List.of(
        java.util.Map.of(
            "name", "files.read_text", "arguments", java.util.Map.of("path", notes.toString())),
        java.util.Map.of(
            "name",
            "files.write_text",
            "arguments",
            java.util.Map.of("path", notes.toString(), "content", "changed\n")),
        java.util.Map.of(
            "name", "files.read_text", "arguments", java.util.Map.of("path", secret.toString())),
        java.util.Map.of(
            "name",
            "files.ensure_dir",
            "arguments",
            java.util.Map.of("path", t.root.resolve("made-by-the-client").toString()))));
    JsonNode seen = client(t.secret(Role.MCP), calls, "Claude Code");

    assertEquals("steward", seen.at("/server/name").asText());
    JsonNode read = null;
    for (JsonNode tool : seen.get("tools"))
      if (tool.get("name").asText().equals("files.read_text")) read = tool;
    assertTrue(read != null, seen.get("tools").toString());
    assertEquals("Files: read text", read.get("title").asText());
    assertTrue(read.at("/annotations/readOnlyHint").asBoolean());
    assertTrue(read.get("hasOutput").asBoolean());

    JsonNode results = seen.get("results");
    assertEquals(
        "hello\n", results.at("/0/structuredContent/content").asText(), results.toString());
    assertTrue(results.get(1).get("isError").asBoolean());
    assertTrue(text(results.get(1)).startsWith("TOKEN_MISSING"), text(results.get(1)));
    assertTrue(text(results.get(1)).contains("Only the user can approve this call"));
    assertEquals("hello\n", Files.readString(notes), "an overwrite waits for a click");
    assertTrue(text(results.get(2)).startsWith("SCOPE_DENIED"), text(results.get(2)));
    // What the client read with tools of its own is out of sight: its session starts tainted, so
    // even a change the window's assistant could make unasked waits for a click.
    assertTrue(text(results.get(3)).startsWith("TOKEN_MISSING"), text(results.get(3)));
    assertTrue(text(results.get(3)).contains("the MCP client's own context"), text(results.get(3)));
    assertFalse(Files.exists(t.root.resolve("made-by-the-client")));

    assertEquals(
        0, t.service().mcpHttpSessions(), "the client ended its session: nothing is kept of it");
    // Every call is in the audit log, under the MCP session's trace, as the mcp role's.
    String session = seen.get("session").asText();
    try (StewardClient ui = t.client(Role.UI)) {
      List<Audit.Row> rows = ui.call(
              dev.steward.protocol.method.Methods.AUDIT_QUERY,
              java.util.Map.of("text", session, "limit", 100),
              Audit.QueryResult.class)
          .rows();
      List<String> decided = rows.stream()
          .filter(r -> "decision".equals(r.kind()))
          .map(r -> r.tool() + " " + r.decision())
          .sorted()
          .toList();
      assertEquals(
          List.of(
              "files.ensure_dir blocked",
              "files.read_text allowed",
              "files.read_text blocked",
              "files.write_text blocked"),
          decided,
          rows.toString());
      assertTrue(rows.stream().allMatch(r -> r.traceId().startsWith("mcp/" + session + "/")));
      // A call that needs no click is checked once, as it runs or is refused; only one that waits
      // for the user has a preflight, which the window's dialog shows.
      List<String> asked = rows.stream()
          .filter(r -> "preflight".equals(r.kind()))
          .map(Audit.Row::tool)
          .sorted()
          .toList();
      assertEquals(List.of("files.ensure_dir", "files.write_text"), asked, rows.toString());
    }
  }

  @Test
  void aClientsCancellationStopsTheCallInTheService() throws Exception {
    try (StewardClient ui = t.client(Role.UI)) {
      PolicyDocument doc = ui.call(Methods.POLICY_GET, Json.object(), PolicyDocument.class);
      ui.call(
          Methods.POLICY_UPDATE,
          doc.withMcpServers(Map.of(
              "notes",
              PolicyDocument.McpServer.command(
                  "node", List.of(NODE.resolve("described-server.mjs").toString()), Map.of()))),
          JsonNode.class);
      Mcp.Server notes = null;
      for (int i = 0; i < 600; i++) {
        notes = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class)
            .servers()
            .get(0);
        if (notes.state().equals("running") && !notes.tools().isEmpty()) break;
        Thread.sleep(100);
      }
      ui.call(Mcp.ACCEPT, new Mcp.AcceptParams("notes", notes.shown()), Mcp.AcceptResult.class);

      String calls = Json.write(List.of(Map.of(
          "name", "mcp.notes.wait", "arguments", Map.of("seconds", 60), "abort_after_ms", 1500)));
      JsonNode seen = client(t.secret(Role.MCP), calls, "a client that stops");
      assertTrue(seen.at("/results/0/protocolError").asText().contains("stop"), seen.toString());
      Audit.Row done = null;
      for (int i = 0; i < 100 && done == null; i++) {
        done = ui
            .call(
                Methods.AUDIT_QUERY,
                new Audit.QueryParams(
                    "mcp.notes.wait", null, null, null, null, null, null, 10, null),
                Audit.QueryResult.class)
            .rows()
            .stream()
            .filter(r -> r.kind().equals("completion"))
            .findFirst()
            .orElse(null);
        if (done == null) Thread.sleep(100);
      }
      assertTrue(done != null, "the call ended");
      assertEquals("CANCELLED", done.errorCode(), done.toString());
      assertTrue(
          java.time.Duration.between(done.startedAt(), done.endedAt()).toMillis() < 5_000,
          "stopped by the cancellation, not by the 60 s: " + done);
    }
  }

  @Test
  void theEndpointAsksWhatTheWebSocketAsks() throws Exception {
    JsonNode none = client("", "[]", "anonymous");
    assertTrue(none.get("connectError").asText().contains("401"), none.toString());
    JsonNode ui = client(t.secret(Role.UI), "[]", "with the window's secret");
    assertTrue(ui.get("connectError").asText().contains("403"), ui.toString());
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
    String mcp = t.secret(Role.MCP);
    assertEquals(200, RawHttp.status(t.port(), post("127.0.0.1:" + t.port(), mcp, "", body)));
    assertEquals(
        403,
        RawHttp.status(
            t.port(), post("127.0.0.1:" + t.port(), mcp, "Origin: http://evil.example\r\n", body)),
        "a web page's request, even with the secret");
    assertEquals(
        403,
        RawHttp.status(t.port(), post("evil.example:" + t.port(), mcp, "", body)),
        "a rebinding Host");
    // A body larger than the WebSocket carries on is refused on its Content-Length, unread (so
    // only its first bytes are sent here: the rest would meet a closed connection).
    String declared =
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + t.port() + "\r\nAuthorization: Bearer "
            + mcp
            + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + "Content-Length: " + (2 * 1024 * 1024) + "\r\n\r\n{\"jsonrpc\":\"2.0\",";
    assertEquals(
        413, RawHttp.status(t.port(), declared), "no bigger than the WebSocket carries on");
  }

  @Test
  void aRefusedRequestIsAnsweredWithAJsonRpcErrorNotTheServersInsides() throws Exception {
    String mcp = t.secret(Role.MCP);
    String host = "127.0.0.1:" + t.port();
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}";
    record Case(String extra, String body, String status) {}
    for (Case c : java.util.List.of(
        new Case("", "not json", " 400 "),
        new Case("", "{\"foo\":1}", " 400 "),
        new Case("Mcp-Session-Id: no-such-session\r\n", ping, " 404 "))) {
      String reply = RawHttp.exchange(t.port(), post(host, mcp, c.extra(), c.body()));
      assertTrue(reply.startsWith("HTTP/1.1" + c.status()), reply);
      String body = reply.substring(reply.indexOf("\r\n\r\n") + 4);
      JsonNode error = dev.steward.protocol.json.Json.parse(body);
      assertEquals("2.0", error.path("jsonrpc").asText(), body);
      assertTrue(error.path("error").path("code").isInt(), body);
      assertTrue(error.path("error").path("message").asText().length() > 5, body);
      assertTrue(!body.contains("stackTrace") && !body.contains("dev.steward"), body);
    }
  }

  @Test
  void argumentsNestedDeeperThanTheWebSocketTakesAreRefusedBeforeTheGate() throws Exception {
    String mcp = t.secret(Role.MCP);
    String host = "127.0.0.1:" + t.port();
    String init = RawHttp.exchange(t.port(), post(host, mcp, "", initialize("deep")));
    String session = init.lines()
        .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("mcp-session-id:"))
        .map(l -> l.substring(l.indexOf(':') + 1).strip())
        .findFirst()
        .orElseThrow(() -> new AssertionError(init));
    String extra = "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-06-18\r\n";
    String deep = "[".repeat(900) + "]".repeat(900);
    for (int i = 0; i < 14; i++) {
      String reply = RawHttp.exchange(
          t.port(),
          post(
              host,
              mcp,
              extra,
              "{\"jsonrpc\":\"2.0\",\"id\":" + (10 + i) + ",\"method\":\"tools/call\","
                  + "\"params\":{\"name\":\"files.read_text\",\"arguments\":{\"path\":"
                  + deep + "}}}"));
      assertTrue(reply.startsWith("HTTP/1.1 400 "), reply);
      assertTrue(reply.contains("\"jsonrpc\":\"2.0\""), reply);
    }
    // More than the 12 requests at once were answered: none is left holding a thread.
    String ping = RawHttp.exchange(
        t.port(), post(host, mcp, extra, "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}"));
    assertTrue(ping.startsWith("HTTP/1.1 200 "), ping);
  }

  @Test
  void bodiesThatTrickleHoldNoMoreThanTheirShareOfThePort() throws Exception {
    String mcp = t.secret(Role.MCP);
    String host = "127.0.0.1:" + t.port();
    // The endpoint is up (a first client has been answered).
    String first = RawHttp.exchange(t.port(), post(host, mcp, "", initialize("first")));
    assertTrue(first.startsWith("HTTP/1.1 200 "), first);
    String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + mcp
        + "\r\nContent-Type: application/json\r\n"
        + "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{";
    List<java.net.Socket> slow = new java.util.ArrayList<>();
    try {
      // More requests than the port has threads, each sending one byte of its body and no more.
      for (int i = 0; i < 40; i++) {
        java.net.Socket s = new java.net.Socket("127.0.0.1", t.port());
        s.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        slow.add(s);
      }
      Thread.sleep(500);
      // The window is still answered (within the port's idle timeout, which would free them).
      JsonNode echo = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (StewardClient ui = t.client(Role.UI)) {
              return ui.call("debug.echo", java.util.Map.of("still", "here"), JsonNode.class);
            }
          })
          .get(10, TimeUnit.SECONDS);
      assertEquals("here", echo.path("still").asText());
    } finally {
      for (java.net.Socket s : slow) s.close();
    }
  }

  @Test
  void aFloodOfNewSessionsIsRefusedAndTheNextSecondOpensOne() throws Exception {
    String mcp = t.secret(Role.MCP);
    String host = "127.0.0.1:" + t.port();
    List<String> statuses = new java.util.ArrayList<>();
    for (int i = 0; i < 80; i++) {
      String reply = RawHttp.exchange(t.port(), post(host, mcp, "", initialize("flood-" + i)));
      statuses.add(reply.lines().findFirst().orElse(""));
    }
    assertTrue(
        statuses.stream().anyMatch(s -> s.startsWith("HTTP/1.1 429 ")),
        "80 new sessions at once are more than the endpoint opens: " + statuses);
    assertTrue(statuses.get(0).startsWith("HTTP/1.1 200 "), statuses.get(0));
    Thread.sleep(1_100);
    String next = RawHttp.exchange(t.port(), post(host, mcp, "", initialize("next")));
    assertTrue(next.startsWith("HTTP/1.1 200 "), next);
    // A session header of the client's own making, and the method in escapes, open sessions too.
    Thread.sleep(1_100);
    List<String> forged = new java.util.ArrayList<>();
    for (int i = 0; i < 80; i++) {
      String body = initialize("forged-" + i).replace("\"initialize\"", "\"initi\\u0061lize\"");
      String reply = RawHttp.exchange(
          t.port(), post(host, mcp, "Mcp-Session-Id: made-up-" + i + "\r\n", body));
      forged.add(reply.lines().findFirst().orElse(""));
    }
    assertTrue(
        forged.stream().anyMatch(s -> s.startsWith("HTTP/1.1 429 ")),
        "a made-up session id opens no more sessions than none: " + forged);
  }

  /** MCP's initialize, as a client named {@code name} sends it. */
  private static String initialize(String name) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
        + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"" + name + "\",\"version\":\"1\"}}}";
  }

  private static String post(String host, String secret, String extra, String body) {
    return "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + secret + "\r\n"
        + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        + extra + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length
        + "\r\nConnection: close\r\n\r\n" + body;
  }
}
