package dev.steward.mcp;

import dev.steward.mcp.front.Cancellations;
import dev.steward.mcp.front.McpFront;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.service.ServiceCommand;
import dev.steward.protocol.service.ServiceSupervisor;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.util.DaemonThreads;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
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

  static final String VERSION = McpFront.VERSION;

  private static final io.modelcontextprotocol.json.schema.JsonSchemaValidator TRUSTED_RESULTS =
      (schema, structuredContent) ->
          io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse.asValid(null);

  private McpBridge() {}

  public static void main(String[] args) throws Exception {
    // MCP's stdout is written by its descriptor (below); whatever prints to System.out goes to
    // stderr, from the first line on, so that it can never land inside a message.
    System.setOut(System.err);
    if (args.length > 0 && args[0].equals("--train")) {
      Training.run();
      return;
    }
    StewardPlaces places = StewardPlaces.fromEnvironment();
    ServiceSupervisor supervisor = new ServiceSupervisor(
            places, ServiceCommand.fromSystemProperty(), Map.of("STEWARD_NO_BUILD", "1"))
        .leavingItRunning();
    // An MCP client waits for this process at its own start: the connection to the service is
    // made while the SDK starts and answers initialize (the transport holds the rest until then).
    CompletableFuture<StewardClient> connecting = CompletableFuture.supplyAsync(
        () -> supervisor.connect(Role.MCP, "steward-mcp"),
        r -> DaemonThreads.start("steward-mcp-connect", r));
    CompletableFuture<List<ToolDefinition>> listing = connecting.thenApply(service ->
        service.call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class).tools());
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    // MCP's stdin and stdout are the bridge's alone: their descriptors, read and written with the
    // transport's own buffers (System.in asked the kernel how much was left after every read).
    QuietStart stdout = new QuietStart(
        new java.io.BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024));
    StdioTransport stdio = StdioTransport.gated(
        mapper, new FileInputStream(FileDescriptor.in), stdout, CANCELLATIONS::message);
    McpSyncServer server = McpServer.sync(stdio)
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
    McpFront.Link link = new McpFront.Link(service, SESSION, "");
    // A call is sent where it is read, and answered where its answer arrives (StdioTransport): no
    // thread waits for it, so none need be woken on its way.
    McpFront front = new McpFront(
        server,
        service,
        tools,
        exchange -> link,
        () -> stdout.expect(1),
        CANCELLATIONS,
        McpFront.Calls.ANSWERED_ON_ARRIVAL);
    // A tools/call without a progress token is read, sent and answered without the SDK's server.
    stdio.shortcut(
        (sessionId, client, id, params) -> front.callRead(link, sessionId, client, id, params));
    service.onNotification(n -> {
      if (Methods.TOOL_PROGRESS.equals(n.method())) McpFront.progress(n.params());
      if (Methods.TOOLS_CHANGED.equals(n.method()))
        DaemonThreads.start("steward-mcp-relist", front::relist);
    });
    // A reconnection is a new connection: it is told the client's name again.
    service.onState(state -> {
      if (state == StewardClient.State.CONNECTED)
        DaemonThreads.start("steward-mcp-hello", () -> front.helloAgain(service));
    });
    stdio.open();
    // While the client reads the tool list: the first call's one-time costs, paid once here.
    DaemonThreads.start("steward-mcp-prime", () -> {
      try {
        Priming.once(mapper);
      } catch (IOException | RuntimeException e) {
        // only the first call is slower for it
      }
    });
    stdio.awaitInputEnd();
    // What the client asked before it let go of stdin is still answered (a script's last call).
    stdio.finish(FINISH);
    server.closeGracefully();
    supervisor.close();
    System.exit(0);
  }

  /** How long the calls still running when stdin ends may take to be answered. */
  private static final java.time.Duration FINISH = java.time.Duration.ofSeconds(30);

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
}
