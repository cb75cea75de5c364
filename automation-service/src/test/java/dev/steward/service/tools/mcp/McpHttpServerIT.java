package dev.steward.service.tools.mcp;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A server reached over Streamable HTTP (the reference "everything" server), not started by Steward. */
class McpHttpServerIT {

  @Test
  void a_server_at_a_url_is_reached_and_its_absence_is_unavailable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ProcessBuilder pb = new ProcessBuilder(
        "node",
        McpServersIT.NODE
            .resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
            .toString(),
        "streamableHttp");
    pb.environment().put("PORT", Integer.toString(port));
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process server = pb.start();
    String url = "http://127.0.0.1:" + port + "/mcp";
    try (TestService t = TestService.start(
        p -> p.withMcpServers(Map.of("remote", PolicyDocument.McpServer.url(url))))) {
      StewardClient ui = t.client(Role.UI);
      StewardClient agent = t.client(Role.AGENT);
      JsonNode s = awaitState(ui, "running");
      assertEquals("http", s.get("transport").asText());
      String hash = "";
      for (JsonNode tool : s.get("tools"))
        if (tool.get("server_name").asText().equals("echo"))
          hash = tool.get("hash").asText();
      ui.call(
          McpPack.ACCEPT,
          Map.of(
              "server", "remote", "tools", java.util.List.of(Map.of("name", "echo", "hash", hash))),
          JsonNode.class);
      ToolResult r = exec(agent, "mcp.remote.echo", args("message", "over http"));
      assertTrue(r.ok(), String.valueOf(r.error()));
      assertEquals("Echo: over http", r.value().at("/content/0/text").asText());

      server.destroy();
      server.waitFor(5, TimeUnit.SECONDS);
      ToolResult gone = exec(agent, "mcp.remote.echo", args("message", "anyone?"));
      assertEquals(ToolErrorCodes.UNAVAILABLE, gone.error().code(), gone.error().message());
      assertTrue(gone.error().message().contains("remote"), gone.error().message());
    } finally {
      server.destroyForcibly();
    }
  }

  static JsonNode awaitState(StewardClient ui, String state) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      JsonNode s = ui.call(McpPack.SERVERS, Map.of(), JsonNode.class).at("/servers/0");
      if (s.path("state").asText().equals(state) && s.path("tools").size() > 0) return s;
      if (System.nanoTime() > deadline) throw new AssertionError("never " + state + ": " + s);
      Thread.sleep(100);
    }
  }
}
