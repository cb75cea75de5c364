package dev.steward.service.tools.mcp;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import dev.steward.service.tools.BrowserReturns;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server at a URL that only a signed-in client may use, built from the official TypeScript
 * SDK's own OAuth parts (its authorization server checks the registered redirect, PKCE and the
 * resource): the user signs in from the window, the server's tool then runs through the gate, and
 * the token is found nowhere but in {@code secrets.json}.
 */
class McpSignInIT {

  static Process oauth;
  static TestService t;
  static StewardClient ui;
  static StewardClient agent;
  static final HttpClient BROWSER =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  static void start() throws Exception {
    oauth = new ProcessBuilder(
            "node", McpServersIT.NODE.resolve("oauth-server.mjs").toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String line = new BufferedReader(
            new InputStreamReader(oauth.getInputStream(), StandardCharsets.UTF_8))
        .readLine();
    String url = Json.parse(line).path("url").asText();
    t = TestService.start(
        p -> p.withMcpServers(Map.of("notes", PolicyDocument.McpServer.url(url))));
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterAll
  static void stop() {
    if (t != null) t.close();
    if (oauth != null) oauth.destroyForcibly();
  }

  static JsonNode server() {
    return ui.call(Mcp.SERVERS, Map.of(), JsonNode.class).get("servers").get(0);
  }

  static JsonNode await(String state) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    JsonNode s = server();
    while (!s.get("state").asText().equals(state)) {
      if (System.nanoTime() > deadline) throw new AssertionError("not " + state + ": " + s);
      Thread.sleep(50);
      s = server();
    }
    return s;
  }

  /** What the user's browser does with the address the window opens. */
  static HttpResponse<String> browse(String authorizationUrl) throws Exception {
    HttpResponse<Void> authorize = BROWSER.send(
        HttpRequest.newBuilder(URI.create(authorizationUrl)).build(),
        HttpResponse.BodyHandlers.discarding());
    assertEquals(302, authorize.statusCode(), "the SDK's authorization server approves");
    String back = authorize.headers().firstValue("Location").orElseThrow();
    assertTrue(
        back.startsWith("http://127.0.0.1:" + t.port() + BrowserReturns.PATH + "/"),
        "the browser is sent back to the service: " + back);
    return BROWSER.send(
        HttpRequest.newBuilder(URI.create(back)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void the_user_signs_in_the_tool_runs_and_the_token_stays_in_secrets_json() throws Exception {
    JsonNode waiting = await(Mcp.Server.SIGN_IN_NEEDED);
    assertFalse(waiting.get("signed_in").asBoolean());
    assertThrows(
        RuntimeException.class,
        () -> agent.call(Mcp.SIGN_IN, Map.of("server", "notes"), JsonNode.class),
        "only the window starts a sign-in");

    String address =
        ui.call(Mcp.SIGN_IN, Map.of("server", "notes"), Mcp.SignInResult.class).authorizationUrl();
    HttpResponse<String> page = browse(address);
    assertEquals(200, page.statusCode(), page.body());
    assertTrue(page.body().contains("Signed in"), page.body());
    assertEquals(
        400,
        BROWSER
            .send(
                HttpRequest.newBuilder(URI.create(page.uri().toString())).build(),
                HttpResponse.BodyHandlers.discarding())
            .statusCode(),
        "the same return twice is refused");

    JsonNode running = await("running");
    assertTrue(running.get("signed_in").asBoolean());
    java.util.List<Map<String, String>> seen = new java.util.ArrayList<>();
    for (JsonNode tool : running.get("tools"))
      seen.add(Map.of(
          "name", tool.get("server_name").asText(), "hash", tool.get("hash").asText()));
    ui.call(Mcp.ACCEPT, Map.of("server", "notes", "tools", seen), JsonNode.class);
    ToolResult who = exec(agent, "mcp.notes.whoami", args());
    assertTrue(who.ok(), String.valueOf(who.error()));
    assertTrue(Json.write(who.value()).contains("called by "), Json.write(who.value()));

    String kept = Files.readString(t.home.config().resolve("secrets.json"));
    JsonNode row = Json.parse(
        Json.parse(kept).path(SignIns.SECTION).path(SignIns.key("notes")).asText());
    String token = row.path("access_token").asText();
    assertFalse(token.isEmpty(), kept);
    assertFalse(Files.readString(t.home.policyFile()).contains(token), "not in policy.json");
    assertFalse(ui.call(Mcp.SERVERS, Map.of(), JsonNode.class).toString().contains(token));
    assertFalse(ui.call(Methods.POLICY_GET, Map.of(), JsonNode.class).toString().contains(token));
    JsonNode audit = ui.call(Methods.AUDIT_QUERY, Map.of("limit", 500), JsonNode.class);
    assertFalse(audit.toString().contains(token), "not in the audit log");
    java.util.List<String> acts = new java.util.ArrayList<>();
    for (JsonNode r : audit.get("rows"))
      if ("policy".equals(r.path("kind").asText())) acts.add(r.path("summary").asText());
    assertEquals(
        java.util.List.of(
            "began signing in to the MCP server \"notes\"",
            "signed in to the MCP server \"notes\" in the browser"),
        acts.stream()
            .filter(a -> a.contains("signing in") || a.contains("signed in"))
            .sorted()
            .toList(),
        "the sign-in's beginning and its end are the user's acts in the log: " + acts);
    assertFalse(Json.write(who.value()).contains(token), "not in the result");

    t.restart();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
    assertTrue(await("running").get("signed_in").asBoolean(), "the sign-in outlives a restart");
    assertTrue(exec(agent, "mcp.notes.whoami", args()).ok());

    ui.call(Mcp.SIGN_OUT, Map.of("server", "notes"), JsonNode.class);
    JsonNode out = await(Mcp.Server.SIGN_IN_NEEDED);
    assertFalse(out.get("signed_in").asBoolean());
    ToolResult refused = exec(agent, "mcp.notes.whoami", args());
    assertEquals(ToolErrorCodes.UNAVAILABLE, refused.error().code());
    assertTrue(refused.error().message().contains("sign in"), refused.error().message());
  }
}
