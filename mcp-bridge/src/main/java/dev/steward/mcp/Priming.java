package dev.steward.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.steward.mcp.front.Cancellations;
import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.ToolResult;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

/**
 * A {@code tools/call}'s ways through the bridge (the SDK's, for a call that asks for progress;
 * the shortcut, for the others), once, with no client and no service: its line
 * read and marked, its arguments taken, the request to the service written, the service's answer
 * read and turned into the MCP answer, written. Each kind of object's first time (Jackson builds
 * its readers and writers for a type then, the JVM links the lambdas) is paid here, while the
 * client still reads the tool list, rather than by the client's first call. The training run
 * for the class-data archive goes the same way.
 */
final class Priming {

  private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
      + "\"params\":{\"name\":\"files.read_text\",\"arguments\":{\"path\":\"~/notes.txt\"},"
      + "\"_meta\":{\"progressToken\":\"p\"}}}";

  private Priming() {}

  /** A call without a progress token: the way most go, without the SDK's server. */
  private static final String QUICK_CALL =
      "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
          + "\"params\":{\"name\":\"files.read_text\",\"arguments\":{\"path\":\"~/notes.txt\"}}}";

  /** Goes both ways once; answers the MCP answers they wrote, one a line. */
  static String once(McpJsonMapper mapper) throws IOException {
    return viaTheSdk(mapper) + "\n" + shortcut();
  }

  /** The way of {@link StdioTransport#shortcut}'s calls and {@link McpFront#callRead}. */
  private static String shortcut() throws IOException {
    JsonNode read = Json.parse(QUICK_CALL);
    JsonNode params = read.get("params");
    MessageCodec.writeUtf8(new Request(
        TextNode.valueOf("2"),
        Methods.TOOL_EXECUTE,
        Json.tree(new Execute.Params(
            "mcp/prime",
            "prime",
            params.get("name").asText(),
            params.get("arguments"),
            null,
            null,
            "mcp-prime"))));
    for (dev.steward.protocol.jsonrpc.Message m : MessageCodec.parseFromServer(serviceAnswer())) {
      if (m instanceof Response r && r.result() != null)
        return McpTools.answer(read.get("id"), r.result(), true);
    }
    throw new IllegalStateException("the service's answer was not read back");
  }

  private static String serviceAnswer() {
    Instant now = Instant.now();
    return MessageCodec.write(new Response(
        TextNode.valueOf("1"),
        Json.tree(ToolResult.success(
            Json.object().put("path", "/home/u/notes.txt").put("content", "text"),
            new AuditMeta("1", "allowed", now, now, "read 4 chars"))),
        null));
  }

  private static String viaTheSdk(McpJsonMapper mapper) throws IOException {
    McpSchema.JSONRPCMessage read =
        new Cancellations(callId -> {}).message(McpSchema.deserializeJsonRpcMessage(mapper, CALL));
    McpSchema.CallToolRequest call = mapper.convertValue(
        ((McpSchema.JSONRPCRequest) read).params(), new TypeRef<McpSchema.CallToolRequest>() {});
    JsonNode args = Json.tree(call.arguments() == null ? Map.of() : call.arguments());
    MessageCodec.writeUtf8(new Request(
        TextNode.valueOf("1"),
        Methods.TOOL_EXECUTE,
        Json.tree(
            new Execute.Params("mcp/prime", "prime", call.name(), args, null, null, "mcp-prime"))));
    for (dev.steward.protocol.jsonrpc.Message m : MessageCodec.parseFromServer(serviceAnswer())) {
      if (m instanceof Response r && r.result() != null) {
        ToolResult result = Json.convert(r.result(), ToolResult.class);
        return mapper.writeValueAsString(new McpSchema.JSONRPCResponse(
            McpSchema.JSONRPC_VERSION, 3, McpTools.result(result), null));
      }
    }
    throw new IllegalStateException("the service's answer was not read back");
  }
}
