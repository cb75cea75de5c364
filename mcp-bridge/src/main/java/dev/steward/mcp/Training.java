package dev.steward.mcp;

import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code McpBridge --train}: the start of an MCP session without a service, run once after a build
 * with {@code -XX:ArchiveClassesAtExit} so that the classes a real start loads (the SDK, both
 * Jacksons, Reactor, the bridge's own transports) come from a class-data archive: the SDK's start took ~400 ms
 * from jars and ~170 ms from the archive on these machines (docs/decisions/0022).
 */
final class Training {

  private Training() {}

  static void run() throws Exception {
    String session = String.join(
            "\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"training\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"sample.tool\",\"arguments\":{}}}")
        + "\n";
    ToolDefinition sample = new ToolDefinition(
        "sample.tool",
        "A tool for the training run.",
        Json.object().put("type", "object"),
        Json.object().put("type", "object"),
        Risk.LOW,
        Confirmation.NEVER,
        List.of());
    // What a call goes through in the bridge, without a service.
    Priming.once(McpJsonDefaults.getMapper());
    Class.forName("dev.steward.protocol.client.ServiceSocket");
    StdioTransport stdio = StdioTransport.gated(
        McpJsonDefaults.getMapper(),
        new ByteArrayInputStream(session.getBytes(StandardCharsets.UTF_8)),
        new QuietStart(OutputStream.nullOutputStream()),
        new dev.steward.mcp.front.Cancellations(callId -> {})::message);
    stdio.open();
    McpSyncServer server = McpServer.sync(stdio)
        .serverInfo("steward", McpBridge.VERSION)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .validateToolInputs(false)
        .build();
    // As the bridge's tools are: answered on the thread the answer arrives on.
    server
        .getAsyncServer()
        .addTool(new McpServerFeatures.AsyncToolSpecification(
            McpTools.tool(sample),
            (exchange, request) -> reactor.core.publisher.Mono.fromFuture(
                java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> McpTools.result(dev.steward.protocol.tool.ToolResult.success(
                        Json.object().put("ok", true), null))))))
        .block();
    Thread.sleep(800);
    server.closeGracefully();
  }
}
