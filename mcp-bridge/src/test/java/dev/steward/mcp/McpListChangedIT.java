package dev.steward.mcp;

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
import dev.steward.protocol.service.ServiceSupervisor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An MCP server the user adds behind Steward reaches an MCP client of {@code ./steward mcp} as soon
 * as the user accepts its tools: the bridge announces {@code tools.listChanged} and sends {@code
 * notifications/tools/list_changed}; and a call the client cancels is cancelled all the way to that
 * server (checked with the official TypeScript SDK's client).
 */
class McpListChangedIT {

  @Test
  void toolsTheUserAcceptsReachAConnectedClientWithoutARestart() throws Exception {
    TestHome test = TestHome.create("steward-mcp-list-", "read");
    Path repo = McpBridgeIT.repo();
    try (ServiceSupervisor service =
        new ServiceSupervisor(test.places(), test.serviceCommand(repo), test.environment())) {
      service.ensureRunning();
      StewardClient ui = service.connect(Role.UI, "list-changed-it");
      ProcessBuilder pb = new ProcessBuilder(
          "node",
          repo.resolve("mcp-bridge/src/test/node/list-changed.mjs").toString(),
          repo.resolve("steward").toString(),
          "mcp.notes.");
      pb.environment().putAll(test.environment());
      pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      Process client = pb.start();
      BufferedReader out = new BufferedReader(
          new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("ready", out.readLine());

      PolicyDocument doc = ui.call(Methods.POLICY_GET, Json.object(), PolicyDocument.class);
      ui.call(
          Methods.POLICY_UPDATE,
          doc.withMcpServers(Map.of(
              "notes",
              PolicyDocument.McpServer.command(
                  "node",
                  List.of(repo.resolve("mcp-bridge/src/test/node/described-server.mjs")
                      .toString()),
                  Map.of()))),
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

      assertTrue(client.waitFor(90, TimeUnit.SECONDS));
      String last = out.lines().reduce((a, b) -> b).orElse("{}");
      assertEquals(0, client.exitValue(), last);
      JsonNode seen = Json.parse(last);
      assertTrue(seen.at("/capabilities/tools/listChanged").asBoolean(), last);
      assertFalse(seen.path("first").toString().contains("mcp.notes."), last);
      assertTrue(seen.path("notifications").asInt() >= 1, last);
      assertTrue(seen.at("/found/name").asText().startsWith("mcp.notes."), last);

      // The client stops a long call: MCP's cancellation reaches the service, which cancels the
      // call at the external server in turn.
      ProcessBuilder stop = new ProcessBuilder(
          "node",
          repo.resolve("mcp-bridge/src/test/node/cancel.mjs").toString(),
          repo.resolve("steward").toString(),
          "mcp.notes.wait",
          "{\"seconds\": 60}",
          "1500");
      stop.environment().putAll(test.environment());
      stop.redirectError(ProcessBuilder.Redirect.INHERIT);
      Process canceller = stop.start();
      String said = new String(canceller.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(canceller.waitFor(60, TimeUnit.SECONDS));
      JsonNode outcome = Json.parse(said.strip().lines().reduce((a, b) -> b).orElse("{}"));
      assertTrue(outcome.path("ms").asLong() < 10_000, said);
      String log = "";
      for (int i = 0; i < 100 && !log.contains("cancelled request"); i++) {
        Thread.sleep(100);
        log = String.join(
            "\n",
            ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class)
                .servers()
                .get(0)
                .stderrTail());
      }
      assertTrue(log.contains("cancelled request"), "the server never heard: " + log + "\n" + said);
      // Cancelled by the client's notification, not by its going away two seconds later.
      Audit.Row done = ui
          .call(
              Methods.AUDIT_QUERY,
              new Audit.QueryParams("mcp.notes.wait", null, null, null, null, null, null, 10, null),
              Audit.QueryResult.class)
          .rows()
          .stream()
          .filter(r -> r.kind().equals("completion"))
          .findFirst()
          .orElseThrow();
      assertEquals("CANCELLED", done.errorCode(), done.toString());
      assertTrue(
          java.time.Duration.between(done.startedAt(), done.endedAt()).toMillis() < 3_000,
          done.toString());
      ui.close();
    } finally {
      test.delete();
    }
  }
}
