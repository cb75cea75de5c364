package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.protocol.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An MCP client (the official TypeScript SDK, through {@code ./steward mcp}, or over Streamable
 * HTTP at {@code /mcp}) asks to overwrite a file while the window runs: the window shows its own dialog, titled with the client's name; Enter
 * approves; the file changes; the client gets the result; the audit log holds the confirmed call.
 */
class McpApprovalIT {

  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
  }

  /** What the client prints, read while it runs (it waits on the window meanwhile). */
  private static CompletableFuture<String> output(Process client) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  @Test
  void anMcpClientsOverwriteIsAskedInTheWindowAndRunsOnceApproved() throws Exception {
    WindowHarness w = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    window = w;
    Path file = w.workspace.resolve("plan.txt");
    Files.writeString(file, "old plan\n");
    ArrayNode calls = Json.mapper().createArrayNode();
    calls
        .addObject()
        .put("name", "files.write_text")
        .putObject("arguments")
        .put("path", "~/Steward/plan.txt")
        .put("content", "new plan\n");
    Path repo = WindowHarness.repo();
    ProcessBuilder pb = new ProcessBuilder(
            "node",
            repo.resolve("mcp-bridge/src/test/node/client.mjs").toString(),
            repo.resolve("steward").toString(),
            calls.toString())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("STEWARD_HOME", w.home.toString());
    pb.environment().put("STEWARD_NO_BUILD", "1");
    pb.environment()
        .put("JAVA_TOOL_OPTIONS", "-Dsteward.warmup.rounds=0 -Duser.home=" + w.userHome);
    Process client = pb.start();
    CompletableFuture<String> output = output(client);

    w.waitForDialog();
    String title = Window.getWindows().stream()
        .filter(s -> s instanceof Stage st && st.isShowing() && st.getTitle() != null)
        .map(s -> ((Stage) s).getTitle())
        .filter(t -> t.contains("asks Steward to act"))
        .findFirst()
        .orElse("");
    assertEquals("The MCP client \u201cts-sdk-test-client 1.0.0\u201d asks Steward to act", title);
    assertTrue(w.robot
        .lookup("#approval-asker")
        .queryAs(javafx.scene.control.Label.class)
        .getText()
        .startsWith("The MCP client \u201cts-sdk-test-client 1.0.0\u201d asks for this call"));
    assertFalse(
        w.robot.lookup("#always").queryAs(javafx.scene.control.Button.class).isVisible(),
        "a standing grant is offered to the window's own assistant only");
    assertEquals("old plan\n", Files.readString(file), "nothing runs before the click");
    w.robot.type(javafx.scene.input.KeyCode.ENTER);

    assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client got its answer");
    String out = output.get(10, TimeUnit.SECONDS);
    JsonNode result = Json.parse(out.lines().reduce((a, b) -> b).orElse("{}")).at("/results/0");
    assertFalse(result.path("isError").asBoolean(), out);
    assertEquals("new plan\n", Files.readString(file));
    w.robot.interact(() -> w.app.audit().refresh());
    w.waitFor(() -> w.app.audit().rows().stream()
        .anyMatch(r -> "files.write_text".equals(r.tool())
            && "confirmed".equals(r.decision())
            && String.valueOf(r.traceId()).startsWith("mcp/")));
  }

  @Test
  void anHttpClientsOverwriteIsAskedInTheWindowWithItsNameAndProgressMeanwhile() throws Exception {
    WindowHarness w = WindowHarness.start(WindowHarness.settings("http://127.0.0.1:9"));
    window = w;
    Path file = w.workspace.resolve("list.txt");
    Files.writeString(file, "milk\n");
    ArrayNode calls = Json.mapper().createArrayNode();
    calls
        .addObject()
        .put("name", "files.write_text")
        .putObject("arguments")
        .put("path", "~/Steward/list.txt")
        .put("content", "milk\neggs\n");
    int port = Json.parse(Files.readString(w.home.resolve("run/service.json")))
        .get("port")
        .asInt();
    String secret = Files.readString(w.home.resolve("config/mcp.secret")).strip();
    Process client = new ProcessBuilder(
            "node",
            WindowHarness.repo()
                .resolve("mcp-bridge/src/test/node/http-client.mjs")
                .toString(),
            "http://127.0.0.1:" + port + "/mcp",
            secret,
            calls.toString(),
            "Claude Desktop")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    CompletableFuture<String> output = output(client);

    w.waitForDialog();
    assertTrue(w.robot
        .lookup("#approval-asker")
        .queryAs(javafx.scene.control.Label.class)
        .getText()
        .startsWith("The MCP client \u201cClaude Desktop 1.0.0\u201d asks for this call"));
    assertEquals("milk\n", Files.readString(file), "nothing runs before the click");
    w.robot.type(javafx.scene.input.KeyCode.ENTER);

    assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client got its answer");
    JsonNode seen = Json.parse(output.get(10, TimeUnit.SECONDS));
    assertFalse(seen.at("/results/0/isError").asBoolean(), seen.toString());
    assertEquals("milk\neggs\n", Files.readString(file));
    assertTrue(
        seen.get("progress").toString().contains("waiting for the user's approval"),
        "told while it waited: " + seen.get("progress"));
    w.robot.interact(() -> w.app.audit().refresh());
    w.waitFor(() -> w.app.audit().rows().stream()
        .anyMatch(r -> "files.write_text".equals(r.tool())
            && "confirmed".equals(r.decision())
            && String.valueOf(r.traceId())
                .startsWith("mcp/" + seen.get("session").asText())));
  }
}
