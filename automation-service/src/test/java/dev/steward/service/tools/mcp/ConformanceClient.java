package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.StewardService;
import dev.steward.service.config.StewardHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client the official MCP conformance suite drives ({@code conformance client --command …}):
 * a Steward service in a fresh home with the suite's test server as its one MCP server (the suite
 * appends the server's URL and names the scenario in {@code MCP_CONFORMANCE_SCENARIO}). Steward's
 * own client connects, lists the tools, and — as a user who accepted them and a model that asks —
 * calls what the scenario expects, through the gate.
 */
public final class ConformanceClient {

  private ConformanceClient() {}

  public static void main(String[] args) throws Exception {
    String url = args[args.length - 1];
    String scenario = System.getenv().getOrDefault("MCP_CONFORMANCE_SCENARIO", "initialize");
    Path base = Files.createTempDirectory("steward-conformance-");
    StewardHome home = StewardHome.under(base.resolve("home"), base.resolve("user"));
    Files.createDirectories(home.config());
    Files.createDirectories(base.resolve("user"));
    PolicyDocument policy = PolicyDocument.defaults()
        .withPaths(List.of())
        .withMcpServers(Map.of("conformance", PolicyDocument.McpServer.url(url)));
    Files.writeString(home.policyFile(), Json.write(policy));
    int status = 1;
    try (StewardService service = StewardService.start(home, StewardService.Options.defaults());
        StewardClient ui =
            StewardClient.connect(Endpoint.loopback(service.port(), service.secret(Role.UI)));
        StewardClient agent =
            StewardClient.connect(Endpoint.loopback(service.port(), service.secret(Role.AGENT)))) {
      if (scenario.startsWith("auth/")) {
        status = signedInCall(ui, agent, service.port());
        System.exit(status);
      }
      Mcp.Server server = awaitListed(ui);
      System.out.println(
          "listed: " + server.tools().stream().map(Mcp.Tool::name).toList());
      if (!server.tools().isEmpty())
        ui.call(
            Mcp.ACCEPT,
            new Mcp.AcceptParams("conformance", server.shown()),
            Mcp.AcceptResult.class);
      status = switch (scenario) {
        case "initialize" -> 0;
        case "tools_call" -> call(ui, agent, "mcp.conformance.add_numbers", "{\"a\": 5, \"b\": 3}");
        case "sse-retry" -> call(ui, agent, "mcp.conformance.test_reconnection", "{}");
        default -> {
          System.err.println("scenario " + scenario + " does not apply to a tools-only client");
          yield 2;
        }
      };
    }
    System.exit(status);
  }

  private static Mcp.Server awaitListed(StewardClient ui) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (true) {
      Mcp.ServersResult r = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class);
      Mcp.Server s = r.servers().get(0);
      if (s.state().equals("running")) return s;
      if (System.nanoTime() > deadline)
        throw new IllegalStateException("the server did not start: " + s);
      Thread.sleep(20);
    }
  }

  /**
   * An auth scenario, as a user would go through it: the server at the URL asks for a sign-in,
   * the user clicks Sign in (the window's {@code mcp.sign_in}) and the browser goes to the address
   * given (the suite's authorization server sends it straight back with a code, as one does once
   * the user has agreed); then the user accepts the tools and the model calls one. A call refused
   * for want of more access is signed in for again once, as the user would be asked to.
   */
  private static int signedInCall(StewardClient ui, StewardClient agent, int port)
      throws Exception {
    JsonNode context = Json.parse(System.getenv().getOrDefault("MCP_CONFORMANCE_CONTEXT", "{}"));
    int signIns = 0;
    for (int attempt = 0; attempt < 2; attempt++) {
      Mcp.Server server = null;
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (System.nanoTime() < deadline) {
        server = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class)
            .servers()
            .get(0);
        if (server.state().equals("running")) break;
        if (server.state().equals(Mcp.Server.SIGN_IN_NEEDED)) {
          if (signIns == 3) break;
          signIns++;
          if (!signIn(ui, port, context)) return 1;
          continue;
        }
        if (server.state().equals("failed") && signIns > 0) break; // the user sees why
        Thread.sleep(50);
      }
      if (server == null || !server.state().equals("running")) {
        System.out.println("the server is not running: " + server);
        return 1;
      }
      if (!Boolean.TRUE.equals(server.signedIn())) {
        System.out.println("running without a sign-in: " + server);
        return 1;
      }
      if (server.tools().isEmpty()) return 0;
      ui.call(
          Mcp.ACCEPT, new Mcp.AcceptParams("conformance", server.shown()), Mcp.AcceptResult.class);
      if (call(ui, agent, server.tools().get(0).name(), "{}") == 0) return 0;
      Thread.sleep(200);
    }
    return 1;
  }

  /** The user's click on Sign in, and the browser's visit to the address Steward gives. */
  private static boolean signIn(StewardClient ui, int port, JsonNode context) throws Exception {
    Mcp.SignInResult started;
    try {
      started = ui.call(
          Mcp.SIGN_IN,
          new Mcp.SignInParams(
              "conformance",
              context.path("client_id").isTextual() ? context.path("client_id").asText() : null,
              context.path("client_secret").isTextual()
                  ? context.path("client_secret").asText()
                  : null),
          Mcp.SignInResult.class);
    } catch (RuntimeException e) {
      System.out.println("sign-in refused: " + e.getMessage());
      return false;
    }
    java.net.http.HttpClient browser = java.net.http.HttpClient.newBuilder()
        .followRedirects(java.net.http.HttpClient.Redirect.NEVER)
        .build();
    var sent = browser.send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(started.authorizationUrl()))
            .build(),
        java.net.http.HttpResponse.BodyHandlers.discarding());
    String back = sent.headers().firstValue("Location").orElse("");
    String callback = "http://127.0.0.1:" + port + dev.steward.service.tools.BrowserReturns.PATH;
    if (!back.startsWith(callback + "/")) {
      System.out.println("the authorization server sent the browser to " + back);
      return false;
    }
    var page = browser.send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(back)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    System.out.println("signed in: " + page.statusCode() + " " + page.body());
    return page.statusCode() == 200;
  }

  /** As the app runs a call: the gate's decision, the user's click where it asks, the call. */
  private static int call(StewardClient ui, StewardClient agent, String tool, String args)
      throws Exception {
    JsonNode a = Json.parse(args);
    String trace = UUID.randomUUID().toString();
    String token = agent.preflight(trace, tool, a).decision().equals("confirm")
        ? ui.grant(new Grant.Params(trace, List.of(new Grant.Call(tool, a)), null, null, 60, null))
            .confirmToken()
        : null;
    JsonNode r;
    try {
      // A scenario's server answers at once; one that never does fails here, not at the tool's
      // two-minute limit.
      r = agent
          .call(
              Methods.TOOL_EXECUTE,
              new Execute.Params(trace, UUID.randomUUID().toString(), tool, a, token, null))
          .get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      System.out.println(tool + " → no answer within 10 s");
      return 1;
    }
    System.out.println(tool + " → " + r);
    return r.path("ok").asBoolean() ? 0 : 1;
  }
}
