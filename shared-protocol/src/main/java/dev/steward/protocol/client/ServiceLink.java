package dev.steward.protocol.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.tool.ToolResult;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * What a client of the service calls it by: a connection over the WebSocket ({@link
 * StewardClient}), or, inside the service, a session on its own dispatcher. A failed call throws
 * (or fails its future with) a {@link RuntimeException} that says why.
 */
public interface ServiceLink {

  boolean isConnected();

  /** Sends a request; the future completes with its result. */
  CompletableFuture<JsonNode> call(String method, @Nullable Object params);

  /** A blocking call, its result read as {@code type}. */
  <T> T call(String method, @Nullable Object params, Class<T> type);

  /** Sends a notification (no response). */
  CompletableFuture<Void> notify(String method, @Nullable Object params);

  ToolResult execute(Execute.Params params);

  /**
   * Sends a {@code tool.execute}; the future completes on the thread the answer arrives on (a
   * dependent stage runs there, with no thread woken for it).
   */
  default CompletableFuture<ToolResult> executeAsync(Execute.Params params) {
    return call(Methods.TOOL_EXECUTE, params).thenApply(n -> Json.convert(n, ToolResult.class));
  }
}
