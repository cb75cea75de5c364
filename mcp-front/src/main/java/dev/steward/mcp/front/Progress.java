package dev.steward.mcp.front;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The service's {@code tool.progress} for a call, as MCP progress notifications to the client that
 * asked with a {@code progressToken} — "waiting for the user's approval in the Steward window"
 * while a dialog is open, so that a client does not give up on a call a person is looking at.
 */
final class Progress {

  private record Watched(McpSyncServerExchange exchange, Object token, AtomicInteger count) {}

  private static final Map<String, Watched> CALLS = new ConcurrentHashMap<>();

  private Progress() {}

  static void watch(String callId, McpSyncServerExchange exchange, Object token) {
    CALLS.put(callId, new Watched(exchange, token, new AtomicInteger()));
  }

  static void done(String callId) {
    CALLS.remove(callId);
  }

  static void forward(@Nullable JsonNode params) {
    if (params == null) return;
    Watched w = CALLS.get(params.path("call_id").asText(""));
    if (w == null) return;
    try {
      w.exchange()
          .progressNotification(new McpSchema.ProgressNotification(
              w.token(),
              w.count().incrementAndGet(),
              null,
              params.path("message").asText("")));
    } catch (RuntimeException e) {
      // a client that went away does not stop the call
    }
  }
}
