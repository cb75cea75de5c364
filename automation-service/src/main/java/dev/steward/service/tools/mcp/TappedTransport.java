package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.function.Predicate;

/**
 * A transport that offers each message it receives to Steward before the SDK's session, as the
 * JSON object it read: what the tap takes (the answers to Steward's own tool calls, list changes)
 * never reaches the SDK, and costs neither the SDK's conversions of the message (text to a map to
 * records) nor a Reactor pipeline on the reading thread.
 */
interface TappedTransport extends McpClientTransport {

  /** Set before {@code connect}; a message for which {@code first} is true is not passed on. */
  void tap(Predicate<JsonNode> first);

  /**
   * A message read as a tree, for the SDK's session: typed as the SDK types text it reads itself,
   * without reading the text a second time.
   */
  static McpSchema.JSONRPCMessage message(McpJsonMapper json, JsonNode read) {
    if (read.has("method")) {
      return read.has("id")
          ? json.convertValue(read, McpSchema.JSONRPCRequest.class)
          : json.convertValue(read, McpSchema.JSONRPCNotification.class);
    }
    if (read.has("result") || read.has("error"))
      return json.convertValue(read, McpSchema.JSONRPCResponse.class);
    throw new IllegalArgumentException("not a JSON-RPC message");
  }
}
