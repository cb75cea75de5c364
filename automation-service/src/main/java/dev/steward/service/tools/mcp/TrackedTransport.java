package dev.steward.service.tools.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * Wraps a transport to learn the JSON-RPC id of each {@code tools/call} it sends (by the call's
 * progress token), so a cancelled call can be cancelled at the server too: the SDK's client does
 * not send {@code notifications/cancelled} itself. It also takes {@code
 * notifications/tools/list_changed} away from the SDK, which would list every page of tools on
 * each one with no bound: Steward lists them itself, one listing at a time, within limits.
 */
final class TrackedTransport implements McpClientTransport {

  static final String LIST_CHANGED = "notifications/tools/list_changed";

  private final McpClientTransport inner;
  private final Runnable listChanged;
  private final Map<String, Object> idsByToken = new ConcurrentHashMap<>();

  TrackedTransport(McpClientTransport inner, Runnable listChanged) {
    this.inner = inner;
    this.listChanged = listChanged;
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest r
        && McpSchema.METHOD_TOOLS_CALL.equals(r.method())
        && r.params() instanceof McpSchema.CallToolRequest call
        && call.meta() != null
        && call.meta().get("progressToken") instanceof String token) {
      idsByToken.put(token, r.id());
    }
    return inner.sendMessage(message);
  }

  /** Tells the server to stop the call of this progress token (MCP's cancellation). */
  void cancel(String token, String reason) {
    Object id = idsByToken.remove(token);
    if (id == null) return;
    inner
        .sendMessage(new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION,
            "notifications/cancelled",
            Map.of("requestId", id, "reason", reason)))
        .onErrorComplete()
        .subscribe();
  }

  /** The call of this token has ended; its id is no longer needed. */
  void done(String token) {
    idsByToken.remove(token);
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return inner.connect(incoming -> incoming
        .filter(message -> {
          if (message instanceof McpSchema.JSONRPCNotification n
              && LIST_CHANGED.equals(n.method())) {
            listChanged.run();
            return false;
          }
          return true;
        })
        .transform(handler));
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    inner.setExceptionHandler(handler);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return inner.closeGracefully();
  }

  @Override
  public void close() {
    inner.close();
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
