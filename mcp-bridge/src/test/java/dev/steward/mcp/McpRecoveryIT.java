package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceInfo;
import dev.steward.protocol.service.ServiceSupervisor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The service dies while an MCP call waits for the user: the client gets an error result, not a
 * hang; the bridge reconnects (starting the service again) and the client's next call works.
 */
class McpRecoveryIT {

  @Test
  void aCallWaitingWhenTheServiceDiesFailsAndTheNextOneWorks() throws Exception {
    TestHome test = TestHome.create("steward-mcp-recovery-", "read_write");
    Path user = test.user();
    Files.writeString(test.steward("a.txt"), "hello\n");
    Files.writeString(test.steward("notes.txt"), "keep me\n");
    Map<String, String> env = test.environment();
    StewardPlaces places = test.places();
    Path repo = McpBridgeIT.repo();
    ServiceSupervisor service = new ServiceSupervisor(places, test.serviceCommand(repo), env);
    try {
      service.ensureRunning();
      StewardClient window = service.connect(Role.UI, "recovery-it");
      // The window sees the request and, instead of a click, the service goes away.
      window.onNotification(n -> {
        if (!Methods.APPROVAL_REQUESTED.equals(n.method())) return;
        ServiceInfo.read(places.serviceInfoFile())
            .flatMap(info -> ProcessHandle.of(info.pid()))
            .ifPresent(ProcessHandle::destroyForcibly);
      });
      ArrayNode calls = Json.mapper().createArrayNode();
      calls
          .addObject()
          .put("name", "files.write_text")
          .putObject("arguments")
          .put("path", "~/Steward/notes.txt")
          .put("content", "never approved");
      calls.addObject().put("sleep_ms", 4000);
      calls
          .addObject()
          .put("name", "files.read_text")
          .putObject("arguments")
          .put("path", "~/Steward/a.txt");
      ProcessBuilder pb = new ProcessBuilder(
              "node",
              repo.resolve("mcp-bridge/src/test/node/client.mjs").toString(),
              repo.resolve("steward").toString(),
              calls.toString())
          .redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.environment().putAll(env);
      Process client = pb.start();
      String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(client.waitFor(120, TimeUnit.SECONDS));
      assertEquals(0, client.exitValue(), out);
      JsonNode results =
          Json.parse(out.lines().reduce((a, b) -> b).orElse("{}")).path("results");
      assertTrue(results.get(0).path("isError").asBoolean(), results.toString());
      assertTrue(results.get(0).toString().contains("UNAVAILABLE"), results.toString());
      assertFalse(results.get(1).path("isError").asBoolean(), results.toString());
      assertEquals("hello\n", results.get(1).at("/structuredContent/content").asText());
      assertEquals("keep me\n", Files.readString(user.resolve("Steward/notes.txt")));
      window.close();
    } finally {
      service.close();
      // the service the bridge started again is this home's: stop it
      ServiceInfo.read(places.serviceInfoFile())
          .flatMap(info -> ProcessHandle.of(info.pid()))
          .ifPresent(ProcessHandle::destroy);
      Thread.sleep(1000);
      test.delete();
    }
  }
}
