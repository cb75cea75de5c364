package dev.steward.service.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.steward.mcp.front.McpFront;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.ServiceLink;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Session;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One MCP session of {@code /mcp} as the service's methods see it: a session of the {@code mcp}
 * role on the service's own dispatcher, called in-process by the thread that runs the MCP call (the
 * SDK's, never Jetty's). The same methods, role checks, gate, approvals and audit rows as a
 * WebSocket connection of that role, without the hand-offs between threads that a connection from
 * the service to itself costs.
 */
final class OwnSession implements Session, ServiceLink {

  private static final AtomicLong IDS = new AtomicLong();
  /** Apart from every earlier service process's, as a connection's id is. */
  private static final String INSTANCE =
      Long.toString(new java.security.SecureRandom().nextLong() & 0xffffffffL, 36);

  private final String id = "h" + IDS.incrementAndGet() + "-" + INSTANCE;
  private final Dispatcher dispatcher;
  /** The mcp role's messages a second, shared with its WebSocket connections. */
  private final RateLimiter rate;

  private final int perSecond;
  private final AtomicLong requests = new AtomicLong();
  private volatile @Nullable String client;

  /**
   * Progress goes to the client on a thread of the session's own, a few lines at most waiting (the
   * rest dropped): it is told on the thread that learnt it — an external server's only reader,
   * among others — which a client that stops reading its stream must not hold.
   */
  private final java.util.concurrent.ThreadPoolExecutor progress =
      new java.util.concurrent.ThreadPoolExecutor(
          0,
          1,
          30,
          java.util.concurrent.TimeUnit.SECONDS,
          new java.util.concurrent.ArrayBlockingQueue<>(16),
          dev.steward.protocol.util.DaemonThreads.named("mcp-http-progress"),
          new java.util.concurrent.ThreadPoolExecutor.DiscardPolicy());

  OwnSession(Dispatcher dispatcher, RateLimiter rate, int perSecond) {
    this.dispatcher = dispatcher;
    this.rate = rate;
    this.perSecond = perSecond;
  }

  @Override
  public Role role() {
    return Role.MCP;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String client() {
    String c = client;
    return c == null ? Role.MCP.wire() : c;
  }

  @Override
  public void named(String name) {
    String clean = Session.cleanName(name);
    if (clean != null) client = clean;
  }

  /** The service's word to this session: a call's progress goes to the MCP client that asked. */
  @Override
  public void send(Notification notification) {
    if (!Methods.TOOL_PROGRESS.equals(notification.method())) return;
    JsonNode params = notification.params();
    JsonNode tree = params instanceof POJONode p ? Json.tree(p.getPojo()) : params;
    progress.execute(() -> McpFront.progress(tree));
  }

  /** The session has ended: its progress thread goes. */
  void end() {
    progress.shutdownNow();
  }

  @Override
  public boolean isConnected() {
    return true;
  }

  @Override
  public CompletableFuture<JsonNode> call(String method, @Nullable Object params) {
    try {
      return CompletableFuture.completedFuture(answer(method, params));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public <T> T call(String method, @Nullable Object params, Class<T> type) {
    JsonNode result = answer(method, params);
    if (result instanceof POJONode p && type.isInstance(p.getPojo())) return type.cast(p.getPojo());
    return Json.convert(result instanceof POJONode p ? Json.tree(p.getPojo()) : result, type);
  }

  @Override
  public CompletableFuture<Void> notify(String method, @Nullable Object params) {
    admit();
    dispatcher.dispatch(this, new Notification(method, node(params)));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public ToolResult execute(Execute.Params params) {
    return call(Methods.TOOL_EXECUTE, params, ToolResult.class);
  }

  private JsonNode answer(String method, @Nullable Object params) {
    admit();
    Optional<Response> answer = dispatcher.dispatch(
        this, new Request(LongNode.valueOf(requests.incrementAndGet()), method, node(params)));
    Response r = answer.orElseThrow(() ->
        ClientException.rpc(RpcError.of(ErrorCodes.INTERNAL_ERROR, "no answer to " + method)));
    RpcError error = r.error();
    if (error != null) throw ClientException.rpc(error);
    return java.util.Objects.requireNonNull(r.result(), "a response has a result or an error");
  }

  private void admit() {
    if (!rate.tryAcquire(1))
      throw ClientException.rpc(RpcError.of(
          ErrorCodes.RATE_LIMITED,
          "more than " + perSecond + " messages a second with the mcp secret; slow down"));
  }

  private static @Nullable JsonNode node(@Nullable Object params) {
    return params == null ? null : params instanceof JsonNode n ? n : Json.tree(params);
  }
}
