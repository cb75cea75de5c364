package dev.steward.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.service.ServiceCommand;
import dev.steward.protocol.service.ServiceSupervisor;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.protocol.util.DaemonThreads;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@code steward mcp}: an MCP server on stdin/stdout whose every tool call is a {@code
 * tool.execute} on the service, as the {@code mcp} role. It finds the service through {@code
 * run/service.json}, or starts it and leaves it running. One bridge is one MCP session, and the
 * service keeps that session's taint on its connection. Nothing the MCP client sends can mint a
 * token: a call the rules want confirmed is refused until the user approves it in the window.
 */
public final class McpBridge {

  static final String VERSION = "0.1.0";

  private static final io.modelcontextprotocol.json.schema.JsonSchemaValidator TRUSTED_RESULTS =
      (schema, structuredContent) ->
          io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse.asValid(null);

  private McpBridge() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--train")) {
      Training.run();
      return;
    }
    StewardPlaces places = StewardPlaces.fromEnvironment();
    ServiceSupervisor supervisor = new ServiceSupervisor(
            places, ServiceCommand.fromSystemProperty(), Map.of("STEWARD_NO_BUILD", "1"))
        .leavingItRunning();
    // An MCP client waits for this process at its own start: the connection to the service is
    // made while the SDK starts and answers initialize (GatedStdin holds the rest until then).
    CompletableFuture<StewardClient> connecting = CompletableFuture.supplyAsync(
        () -> supervisor.connect(Role.MCP, "steward-mcp"),
        r -> DaemonThreads.start("steward-mcp-connect", r));
    CompletableFuture<List<ToolDefinition>> listing = connecting.thenApply(service ->
        service.call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class).tools());
    GatedStdin in = new GatedStdin(System.in, CANCELLATIONS::line);
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    QuietStart stdout = new QuietStart(System.out);
    McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(mapper, in, stdout))
        .serverInfo("steward", VERSION)
        .instructions("Steward's desktop tools. Every call passes Steward's gate: scopes, the"
            + " user's approval in the Steward window where the rules ask for it, and an audit"
            + " log the user reviews.")
        // listChanged: external MCP servers behind Steward's gate come and go.
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        // The gate checks arguments itself, and audits a call it refuses; the SDK must not
        // answer for it first.
        .validateToolInputs(false)
        // Results are the service's, in the shape of each tool's result schema (the bridge's tests
        // check the ones they get); the SDK's validator cost ~120 ms of every start.
        .jsonSchemaValidator(TRUSTED_RESULTS)
        .build();
    StewardClient service;
    List<ToolDefinition> tools;
    try {
      service = connecting.join();
      tools = listing.join();
    } catch (java.util.concurrent.CompletionException e) {
      // stderr is where MCP clients show a server's complaints; stdout is MCP's alone.
      System.err.println("steward mcp: cannot reach the Steward service: "
          + (e.getCause() == null ? e : e.getCause()).getMessage());
      System.exit(1);
      return;
    }
    connected = service;
    Offered offered = new Offered(server, service, tools, stdout);
    service.onNotification(n -> {
      if (Methods.TOOL_PROGRESS.equals(n.method())) Progress.forward(n.params());
      if (Methods.TOOLS_CHANGED.equals(n.method()))
        DaemonThreads.start("steward-mcp-relist", offered::relist);
    });
    // A reconnection is a new connection: it is told the client's name again.
    service.onState(state -> {
      if (state == StewardClient.State.CONNECTED && clientName != null)
        DaemonThreads.start("steward-mcp-hello", () -> hello(service));
    });
    in.open();
    in.awaitEnd();
    server.closeGracefully();
    supervisor.close();
    System.exit(0);
  }

  /**
   * The tools this bridge offers, kept as the service lists them: a tool that came is added, one
   * that went is removed, one whose definition changed is replaced; the SDK tells the client
   * ({@code notifications/tools/list_changed}).
   */
  private static final class Offered {
    private final McpSyncServer server;
    private final StewardClient service;
    private final Map<String, ToolDefinition> now = new java.util.LinkedHashMap<>();
    private final QuietStart stdout;

    Offered(
        McpSyncServer server,
        StewardClient service,
        List<ToolDefinition> first,
        QuietStart stdout) {
      this.server = server;
      this.service = service;
      this.stdout = stdout;
      for (ToolDefinition t : first) {
        server.addTool(specification(t, service));
        now.put(t.name(), t);
      }
    }

    synchronized void relist() {
      List<ToolDefinition> listed;
      try {
        listed = service
            .call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class)
            .tools();
      } catch (RuntimeException e) {
        return; // the next change lists them again
      }
      Map<String, ToolDefinition> next = new java.util.LinkedHashMap<>();
      for (ToolDefinition t : listed) next.put(t.name(), t);
      for (String name : List.copyOf(now.keySet())) {
        if (!next.containsKey(name) || !next.get(name).equals(now.get(name))) {
          stdout.expect(1);
          server.removeTool(name);
          now.remove(name);
        }
      }
      for (ToolDefinition t : listed) {
        if (!now.containsKey(t.name())) {
          stdout.expect(1);
          server.addTool(specification(t, service));
          now.put(t.name(), t);
        }
      }
    }
  }

  private static McpServerFeatures.SyncToolSpecification specification(
      ToolDefinition definition, StewardClient service) {
    return new McpServerFeatures.SyncToolSpecification(
        McpTools.tool(definition), (exchange, request) -> call(service, exchange, request));
  }

  /**
   * This bridge's MCP session, as the service keeps its taint: the same across reconnections, so
   * that a lost connection never starts the session clean.
   */
  private static final String SESSION = "mcp-" + UUID.randomUUID();

  /** The service connection once made: a cancellation is sent on through it. */
  private static volatile @Nullable StewardClient connected;

  private static final Cancellations CANCELLATIONS = new Cancellations(callId -> {
    StewardClient s = connected;
    if (s != null) s.call(Methods.TOOL_CANCEL, new Execute.CancelParams(callId));
  });

  /** The MCP client's name and version once it has said them; the service is told (dialogs, rows). */
  private static volatile @Nullable String clientName;

  private static void hello(StewardClient service) {
    String name = clientName;
    if (name == null) return;
    try {
      service.call(Methods.SESSION_HELLO, new Hello.Params(name, VERSION), Hello.Result.class);
    } catch (RuntimeException e) {
      // the next reconnection says it again
    }
  }

  private static McpSchema.CallToolResult call(
      StewardClient service, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    JsonNode args =
        Json.tree(request.arguments() == null ? Map.<String, Object>of() : request.arguments());
    String callId = "mcp-" + UUID.randomUUID();
    McpSchema.Implementation client = exchange.getClientInfo();
    if (client != null && clientName == null) {
      clientName = client.name() + (client.version() == null ? "" : " " + client.version());
      hello(service);
    }
    Object token = request.meta() == null ? null : request.meta().get("progressToken");
    if (token != null) Progress.watch(callId, exchange, token);
    Object requestId = request.meta() == null ? null : request.meta().get(Cancellations.KEY);
    if (requestId != null) CANCELLATIONS.started(requestId, callId);
    try {
      ToolResult result = service.execute(new Execute.Params(
          "mcp/" + exchange.sessionId() + "/" + callId,
          callId,
          request.name(),
          args,
          null,
          null,
          SESSION));
      return McpTools.result(result);
    } catch (RuntimeException e) {
      return McpSchema.CallToolResult.builder()
          .addTextContent("UNAVAILABLE: the Steward service did not answer: " + e.getMessage())
          .isError(true)
          .build();
    } finally {
      Progress.done(callId);
      if (requestId != null) CANCELLATIONS.finished(requestId);
    }
  }
}
