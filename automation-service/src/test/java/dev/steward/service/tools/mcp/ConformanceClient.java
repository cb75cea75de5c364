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
