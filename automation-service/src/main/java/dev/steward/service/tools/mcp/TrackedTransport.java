package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's session speaks the protocol (initialize, listings, progress), but Steward sends its
 * tool calls itself: each answer is handed from the reading thread straight to the waiting caller,
 * where the SDK's request path scheduled a timeout task (a wake-up of Reactor's timer thread) and
 * passed the answer through several operators on each call; the gate's own time limit bounds the
 * wait. Knowing each call's id also lets a cancelled call be cancelled at the server (the SDK's
 * client does not send {@code notifications/cancelled}). It also takes {@code
 * notifications/tools/list_changed} away from the SDK, which would list every page of tools on
 * each one with no bound: Steward lists them itself, one listing at a time, within limits.
 */
final class TrackedTransport implements McpClientTransport {

  static final String LIST_CHANGED = "notifications/tools/list_changed";

  /** Ids of Steward's own calls: strings the SDK's session never generates. */
  private static final String ID_PREFIX = "steward-call-";

  private final TappedTransport inner;
  private final Runnable listChanged;
  private final AtomicLong ids = new AtomicLong();
  private final Map<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final Map<String, String> idsByToken = new ConcurrentHashMap<>();
  private volatile boolean closed;

  TrackedTransport(TappedTransport inner, Runnable listChanged) {
    this.inner = inner;
    this.listChanged = listChanged;
    inner.tap(this::take);
  }

  /**
   * Sends {@code tools/call} of {@code name} with {@code arguments}; the future ends with the
   * server's result as it sent it (an error answer as an {@link McpError}), or with the
   * transport's failure to send the call.
   */
  CompletableFuture<JsonNode> call(String name, JsonNode arguments, String token) {
    String id = ID_PREFIX + ids.incrementAndGet();
    ObjectNode params = ServerLink.WIRE.createObjectNode().put("name", name);
    params.set("arguments", arguments);
    params.putObject("_meta").put("progressToken", token);
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    idsByToken.put(token, id);
    if (closed) answer.completeExceptionally(new IllegalStateException("the connection has ended"));
    else
      inner
          .sendMessage(new McpSchema.JSONRPCRequest(McpSchema.METHOD_TOOLS_CALL, id, params))
          .subscribe(null, answer::completeExceptionally);
    return answer.whenComplete((r, e) -> pending.remove(id)).thenApply(TrackedTransport::result);
  }

  private static JsonNode result(JsonNode answer) {
    JsonNode error = answer.get("error");
    if (error != null && !error.isNull()) {
      JsonNode data = error.get("data");
      throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
          error.path("code").canConvertToInt()
              ? error.path("code").intValue()
              : McpSchema.ErrorCodes.INTERNAL_ERROR,
          error.path("message").isTextual() ? error.path("message").textValue() : "",
          data == null || data.isNull() ? null : data.isTextual() ? data.textValue() : data));
    }
    return answer.path("result");
  }

  private boolean take(JsonNode message) {
    JsonNode id = message.get("id");
    if (id != null && !message.has("method")) {
      if (!id.isTextual() || !id.textValue().startsWith(ID_PREFIX)) return false;
      CompletableFuture<JsonNode> waiting = pending.remove(id.textValue());
      if (waiting != null) waiting.complete(message);
      // An answer to a call that has ended (cancelled, timed out) is dropped here too.
      return true;
    }
    if (id == null && LIST_CHANGED.equals(message.path("method").asText())) {
      listChanged.run();
      return true;
    }
    // Steward uses neither resources nor prompts; the SDK's client would list every page of them
    // (and read a resource) on each such notification, with no bound.
    String method = message.path("method").asText("");
    return id == null
        && (method.startsWith("notifications/resources/")
            || method.equals("notifications/prompts/list_changed"));
  }

  /** Tells the server to stop the call of this progress token (MCP's cancellation). */
  void cancel(String token, String reason) {
    String id = idsByToken.get(token);
    if (id == null) return;
    inner
        .sendMessage(new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION,
            "notifications/cancelled",
            Map.of("requestId", id, "reason", reason)))
        .onErrorComplete()
        .subscribe();
  }

  /** Calls waiting for their answers. */
  int waiting() {
    return pending.size();
  }

  /** The call of this token has ended; its id is no longer needed. */
  void done(String token) {
    String id = idsByToken.remove(token);
    if (id != null) pending.remove(id);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return inner.sendMessage(message);
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return inner.connect(handler);
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    inner.setExceptionHandler(handler);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::endCalls).then(inner.closeGracefully());
  }

  @Override
  public void close() {
    endCalls();
    inner.close();
  }

  private void endCalls() {
    closed = true;
    pending
        .values()
        .forEach(f -> f.completeExceptionally(
            new IllegalStateException("the connection to the server has ended")));
    pending.clear();
  }

  @Override
  public List<String> protocolVersions() {
    return inner.protocolVersions();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return inner.unmarshalFrom(data, typeRef);
  }
}
