package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpClientTransport;
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
}
