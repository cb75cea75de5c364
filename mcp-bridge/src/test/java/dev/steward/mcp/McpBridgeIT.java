package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Approval;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceSupervisor;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ./steward mcp} driven by independent MCP clients from npm — the MCP Inspector's CLI and a
 * client written with the official TypeScript SDK — against the real service in a home of its own:
 * the tools are listed, a read in scope runs, a read outside is refused, an overwrite nobody
 * approved is an error result and changes nothing, and every call is in the audit log.
 */
class McpBridgeIT {

  private static TestHome test;
  private static Path user;
  private static ServiceSupervisor service;
  private static StewardClient ui;

  @BeforeAll
  static void start() throws Exception {
    test = TestHome.create("steward-mcp-", "read_write");
    user = test.user();
    Files.writeString(test.steward("a.txt"), "hello\n");
    Files.writeString(test.steward("notes.txt"), "keep me\n");
    Files.writeString(test.steward("approve-me.txt"), "before\n");
    Files.writeString(test.steward("held.txt"), "held\n");
    service = new ServiceSupervisor(test.places(), test.serviceCommand(repo()), environment());
    service.ensureRunning();
    ui = service.connect(Role.UI, "mcp-it");
    // This connection is the window: it approves a write whose content says "approved", and
    // declines every other, as a user at the dialog would.
    ui.onNotification(n -> {
      if (Methods.APPROVAL_WITHDRAWN.equals(n.method()))
        withdrawn.add(Json.convert(n.params(), Approval.Withdrawn.class));
      if (!Methods.APPROVAL_REQUESTED.equals(n.method())) return;
      Approval.Requested asked = Json.convert(n.params(), Approval.Requested.class);
      asks.add(asked);
      Approval.Call call = asked.calls().get(0);
      if (call.args().path("content").asText().contains("hold")) return; // the user looks away
      new Thread(() -> {
            if (call.args().path("content").asText().contains("approved")) {
              ui.call(
                  Methods.CONFIRM_GRANT,
                  new Grant.Params(
                      asked.traceId(),
                      List.of(new Grant.Call(call.tool(), call.args())),
                      null,
                      null,
                      60,
                      null,
                      asked.requestId()),
                  Grant.Result.class);
            } else {
              ui.call(
                  Methods.APPROVAL_DENY,
                  new Deny.Params(asked.requestId(), null, null, null, "declined by you"),
                  Deny.Result.class);
            }
          })
          .start();
    });
  }

  private static final List<Approval.Requested> asks =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private static final List<Approval.Withdrawn> withdrawn =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  @AfterAll
  static void stop() throws Exception {
    ui.close();
    service.close();
    test.delete();
  }

  private static Map<String, String> environment() {
    return test.environment();
  }

  @Test
  void theInspectorCliListsCallsAndIsRefusedWhereTheGateSaysSo() throws Exception {
    Run listed = inspector("--method", "tools/list");
    assertEquals(0, listed.exit(), listed.output());
    JsonNode tools = Json.parse(listed.output()).path("tools");
    JsonNode read = find(tools, "files.read_text");
    assertEquals("object", read.at("/inputSchema/type").asText());
    assertTrue(read.at("/annotations/readOnlyHint").asBoolean(), read.toString());
    assertTrue(
        find(tools, "files.write_text").at("/annotations/destructiveHint").asBoolean());

    Run inScope = inspector(
        "--method",
        "tools/call",
        "--tool-name",
        "files.read_text",
        "--tool-arg",
        "path=~/Steward/a.txt");
    assertEquals(0, inScope.exit(), inScope.output());
    JsonNode readResult = Json.parse(inScope.output());
    assertEquals("hello\n", readResult.at("/structuredContent/content").asText());
    // The bridge does not check results against their outputSchema on each call: here they are.
    conforms(read.path("outputSchema"), readResult.path("structuredContent"));
    Run listing = inspector(
        "--method", "tools/call", "--tool-name", "files.list_dir", "--tool-arg", "path=~/Steward");
    assertEquals(0, listing.exit(), listing.output());
    conforms(
        find(tools, "files.list_dir").path("outputSchema"),
        Json.parse(listing.output()).path("structuredContent"));

    Run outside = inspector(
        "--method",
        "tools/call",
        "--tool-name",
        "files.read_text",
        "--tool-arg",
        "path=/etc/hostname");
    assertEquals(
        5, outside.exit(), "the Inspector exits 5 on an isError result: " + outside.output());
    assertTrue(outside.output().contains("SCOPE_DENIED"), outside.output());
  }

  @Test
  void theTypeScriptSdkClientGetsStructuredResultsAndAnOverwriteNobodyApprovedChangesNothing()
      throws Exception {
    ArrayNode calls = Json.mapper().createArrayNode();
    calls
        .addObject()
        .put("name", "files.read_text")
        .putObject("arguments")
        .put("path", "~/Steward/a.txt");
    calls
        .addObject()
        .put("name", "files.read_text")
        .putObject("arguments")
        .put("path", "/etc/hostname");
    calls
        .addObject()
        .put("name", "files.write_text")
        .putObject("arguments")
        .put("path", "~/Steward/notes.txt")
        .put("content", "overwritten by a model");
    calls
        .addObject()
        .put("name", "files.write_text")
        .putObject("arguments")
        .put("path", "~/Steward/approve-me.txt")
        .put("content", "approved by the user");
    Run run = run(List.of(
        "node",
        repo().resolve("mcp-bridge/src/test/node/client.mjs").toString(),
        repo().resolve("steward").toString(),
        calls.toString()));
    assertEquals(0, run.exit(), run.output());
    JsonNode out = Json.parse(run.output().lines().reduce((a, b) -> b).orElse("{}"));
    assertEquals("steward", out.at("/server/name").asText());
    JsonNode read = find(out.path("tools"), "files.read_text");
    assertEquals("Files: read text", read.path("title").asText());
    assertTrue(read.path("hasOutput").asBoolean());
    JsonNode results = out.path("results");
    assertFalse(results.get(0).path("isError").asBoolean(), results.get(0).toString());
    assertEquals("hello\n", results.get(0).at("/structuredContent/content").asText());
    assertTrue(results.get(1).path("isError").asBoolean());
    assertTrue(
        results.get(1).toString().contains("SCOPE_DENIED"), results.get(1).toString());
    assertTrue(results.get(2).path("isError").asBoolean());
    assertTrue(
        results
            .get(2)
            .toString()
            .contains("CONFIRMATION_REQUIRED: the call did not run: declined" + " by you"),
        results.get(2).toString());
    assertTrue(
        results.get(2).toString().contains("Steward window"), results.get(2).toString());
    assertEquals("keep me\n", Files.readString(user.resolve("Steward/notes.txt")));
    assertFalse(results.get(3).path("isError").asBoolean(), results.get(3).toString());
    assertEquals("approved by the user", Files.readString(user.resolve("Steward/approve-me.txt")));
    Approval.Requested asked = asks.stream()
        .filter(
            a -> a.calls().get(0).args().path("path").asText().equals("~/Steward/approve-me.txt"))
        .findFirst()
        .orElseThrow();
    assertEquals("ts-sdk-test-client 1.0.0", asked.client(), "the dialog can say who asks");
    assertEquals("confirm", asked.calls().get(0).preflight().decision());

    List<Audit.Row> rows = ui.call(
            Methods.AUDIT_QUERY,
            Json.object().put("tool", "files.write_text").put("limit", 100),
            Audit.QueryResult.class)
        .rows();
    assertTrue(
        rows.stream()
            .anyMatch(r ->
                "denied".equals(r.decision()) && String.valueOf(r.traceId()).startsWith("mcp/")),
        rows.toString());
    assertTrue(
        rows.stream()
            .anyMatch(r ->
                "confirmed".equals(r.decision()) && String.valueOf(r.traceId()).startsWith("mcp/")),
        rows.toString());
    // Rows name the client and its role; the audit panel's text filter finds them by it.
    List<Audit.Row> byClient = ui.call(
            Methods.AUDIT_QUERY,
            Json.object().put("text", "asked by ts-sdk-test-client 1.0.0 (mcp)").put("limit", 100),
            Audit.QueryResult.class)
        .rows();
    assertTrue(
        byClient.stream()
            .anyMatch(r -> "confirmed".equals(r.decision()) && "files.write_text".equals(r.tool())),
        byClient.toString());
    assertTrue(byClient.stream().anyMatch(r -> "denied".equals(r.decision())), byClient.toString());
  }

  @Test
  void aClientHasOneCallWaitingAtATimeAndWhatItLeavesWaitingIsDeclinedWhenItGoes()
      throws Exception {
    StewardClient mcp = service.connect(Role.MCP, "two-at-once");
    JsonNode first = Json.object().put("path", "~/Steward/held.txt").put("content", "hold 1");
    CompletableFuture<ToolResult> waiting = mcp.executeAsync(
        new Execute.Params("mcp/held", "held-1", "files.write_text", first, null, null));
    waitFor(() -> asks.stream()
        .anyMatch(a -> a.calls().get(0).args().path("content").asText().equals("hold 1")));
    ToolResult second = mcp.execute(new Execute.Params(
        "mcp/held",
        "held-2",
        "files.write_text",
        Json.object().put("path", "~/Steward/held.txt").put("content", "hold 2"),
        null,
        null));
    assertFalse(second.ok());
    assertTrue(
        String.valueOf(second.error()).contains("already waits for the user's answer"),
        String.valueOf(second.error()));
    assertEquals(
        1,
        asks.stream()
            .filter(a -> a.calls().get(0).args().path("content").asText().startsWith("hold "))
            .count(),
        "one dialog, not two");
    mcp.close();
    waitFor(() -> ui
        .call(
            Methods.AUDIT_QUERY,
            Json.object().put("text", "the client went away before an answer").put("limit", 10),
            Audit.QueryResult.class)
        .rows()
        .stream()
        .anyMatch(r -> "denied".equals(r.decision())));
    assertTrue(waiting.isCompletedExceptionally(), "the closed client's call ended with it");
    assertEquals("held\n", Files.readString(user.resolve("Steward/held.txt")));
    String heldId = asks.stream()
        .filter(a -> a.calls().get(0).args().path("content").asText().equals("hold 1"))
        .findFirst()
        .orElseThrow()
        .requestId();
    waitFor(() -> withdrawn.stream().anyMatch(w -> w.requestId().equals(heldId)));
  }

  @Test
  void aDialogSaysWhenAnotherConnectedClientGivesTheSameName() throws Exception {
    try (StewardClient honest = service.connect(Role.MCP, "Twin Client 1.0");
        StewardClient other = service.connect(Role.MCP, "Twin Client 1.0");
        StewardClient third = service.connect(Role.MCP, "Another Client 1.0")) {
      honest.hello();
      other.hello();
      third.hello();
      for (StewardClient c : List.of(other, third)) {
        String content = "twin " + c.hashCode() + " on hold";
        CompletableFuture<ToolResult> call = c.executeAsync(new Execute.Params(
            "mcp/twin",
            "twin-" + c.hashCode(),
            "files.write_text",
            Json.object().put("path", "~/Steward/held.txt").put("content", content),
            null,
            null));
        waitFor(() -> asks.stream()
            .anyMatch(a -> a.calls().get(0).args().path("content").asText().equals(content)));
        Approval.Requested asked = asks.stream()
            .filter(a -> a.calls().get(0).args().path("content").asText().equals(content))
            .findFirst()
            .orElseThrow();
        assertEquals(c == other ? Integer.valueOf(1) : null, asked.clientsAlike(), asked.client());
        assertFalse(call.isDone());
      }
    }
  }

  @Test
  void clientsTogetherCannotStackMoreThanThreeDialogs() throws Exception {
    List<StewardClient> clients = new java.util.ArrayList<>();
    try {
      for (int i = 1; i <= 4; i++) {
        StewardClient mcp = service.connect(Role.MCP, "stacks-" + i);
        clients.add(mcp);
        String content = "stack " + i + " on hold"; // the user looks away
        // The fourth with a path long enough that its row's preview is cut.
        CompletableFuture<ToolResult> call = mcp.executeAsync(new Execute.Params(
            "mcp/stack",
            "stack-" + i,
            i < 4 ? "files.write_text" : "files.ensure_dir",
            i < 4
                ? Json.object().put("path", "~/Steward/held.txt").put("content", content)
                : Json.object()
                    .put("path", "~/Steward/stack/" + "x".repeat(150) + "/" + "y".repeat(150)),
            null,
            null));
        if (i < 4) {
          waitFor(() -> asks.stream()
              .anyMatch(a -> a.calls().get(0).args().path("content").asText().equals(content)));
          continue;
        }
        ToolResult fourth = call.get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(fourth.ok());
        assertTrue(
            String.valueOf(fourth.error()).contains("3 calls from MCP clients already wait"),
            String.valueOf(fourth.error()));
        // Turned away on its way to the user: a row, and no whole kept (it costs nothing to send).
        Audit.Row row = ui
            .call(
                Methods.AUDIT_QUERY,
                new Audit.QueryParams(null, null, null, "mcp/stack", null, null, null, 10, null),
                Audit.QueryResult.class)
            .rows()
            .stream()
            .filter(r -> "denied".equals(r.decision()) && "stack-4".equals(r.callId()))
            .findFirst()
            .orElseThrow();
        assertTrue(row.argsPreview().contains("[whole not kept: "), row.argsPreview());
      }
      assertEquals(
          0,
          asks.stream()
              .filter(
                  a -> a.calls().get(0).args().path("path").asText().startsWith("~/Steward/stack/"))
              .count(),
          "no fourth dialog");
      assertFalse(Files.exists(user.resolve("Steward/stack")));
    } finally {
      clients.forEach(StewardClient::close);
    }
    assertEquals("held\n", Files.readString(user.resolve("Steward/held.txt")));
  }

  @Test
  void aCallCancelledWhileItWaitsForTheUserEndsAndItsDialogIsWithdrawn() throws Exception {
    try (StewardClient mcp = service.connect(Role.MCP, "cancels")) {
      JsonNode args = Json.object().put("path", "~/Steward/held.txt").put("content", "hold-3");
      CompletableFuture<ToolResult> waiting = mcp.executeAsync(
          new Execute.Params("mcp/cancel", "cancel-1", "files.write_text", args, null, null));
      waitFor(() -> asks.stream()
          .anyMatch(a -> a.calls().get(0).args().path("content").asText().equals("hold-3")));
      String requestId = asks.stream()
          .filter(a -> a.calls().get(0).args().path("content").asText().equals("hold-3"))
          .findFirst()
          .orElseThrow()
          .requestId();
      assertTrue(mcp.call(
              Methods.TOOL_CANCEL, new Execute.CancelParams("cancel-1"), Execute.CancelResult.class)
          .cancelled());
      ToolResult r = waiting.get(10, TimeUnit.SECONDS);
      assertEquals(ToolErrorCodes.CANCELLED, r.error().code(), String.valueOf(r.error()));
      waitFor(() -> withdrawn.stream().anyMatch(w -> w.requestId().equals(requestId)));
      assertEquals("held\n", Files.readString(user.resolve("Steward/held.txt")));

      // A cancel that overtakes its call stops it as it begins.
      assertFalse(mcp.call(
              Methods.TOOL_CANCEL, new Execute.CancelParams("cancel-2"), Execute.CancelResult.class)
          .cancelled());
      ToolResult early = mcp.execute(new Execute.Params(
          "mcp/cancel",
          "cancel-2",
          "files.read_text",
          Json.object().put("path", "~/Steward/a.txt"),
          null,
          null));
      assertEquals(ToolErrorCodes.CANCELLED, early.error().code(), String.valueOf(early.error()));
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("timed out");
      Thread.sleep(50);
    }
  }

  @Test
  void theMcpRoleCannotMintTokensReadTheAuditChangePolicyOrUndo() {
    StewardClient mcp = service.connect(Role.MCP, "mcp-it");
    try {
      for (String method : List.of(
          Methods.CONFIRM_GRANT, Methods.POLICY_UPDATE, Methods.AUDIT_QUERY, Methods.TOOL_UNDO)) {
        ClientException e = assertThrows(
            ClientException.class, () -> mcp.call(method, Json.object(), JsonNode.class), method);
        assertEquals(
            ErrorCodes.FORBIDDEN, e.rpcError() == null ? 0 : e.rpcError().code(), method);
        assertTrue(String.valueOf(e.getMessage()).contains("not allowed for the mcp role"), method);
      }
    } finally {
      mcp.close();
    }
    List<Audit.Row> refused = ui.call(
            Methods.AUDIT_QUERY,
            Json.object().put("text", "not allowed for the mcp role").put("limit", 100),
            Audit.QueryResult.class)
        .rows();
    assertEquals(4, refused.size(), "each refusal is in the audit log: " + refused);
  }

  private static void conforms(JsonNode schema, JsonNode value) {
    var check = io.modelcontextprotocol.json.McpJsonDefaults.getSchemaValidator()
        .validate(McpTools.map(schema), McpTools.map(value));
    assertTrue(check.valid(), check.errorMessage() + " in " + value);
  }

  private static JsonNode find(JsonNode tools, String name) {
    for (JsonNode t : tools) if (name.equals(t.path("name").asText())) return t;
    throw new AssertionError("no tool " + name + " in " + tools);
  }

  private record Run(int exit, String output) {}

  private static Run inspector(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(npmBin("mcp-inspector").toString(), "--cli"));
    for (Map.Entry<String, String> e : environment().entrySet())
      command.addAll(List.of("-e", e.getKey() + "=" + e.getValue()));
    command.addAll(List.of(repo().resolve("steward").toString(), "mcp"));
    command.addAll(List.of(args));
    return run(command);
  }

  private static Run run(List<String> command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(false);
    pb.environment().putAll(environment());
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("no answer in 120 s from " + command);
    }
    return new Run(p.exitValue(), out);
  }

  /** The npm clients {@code ./steward test} installs; a machine without them fails here, loudly. */
  private static Path npmModules() {
    Path modules = repo().resolve("mcp-bridge/src/test/node/node_modules");
    if (!Files.isDirectory(modules.resolve("@modelcontextprotocol/sdk"))
        || !Files.isDirectory(modules.resolve("@modelcontextprotocol/inspector")))
      throw new AssertionError("the MCP test clients are not installed in " + modules
          + ": ./steward test installs them (npm install from mcp-bridge/src/test/node)");
    return modules;
  }

  private static Path npmBin(String name) throws IOException {
    return npmModules().resolve(".bin").resolve(name);
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
}
