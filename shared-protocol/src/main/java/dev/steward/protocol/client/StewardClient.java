package dev.steward.protocol.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.Message;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.protocol.util.DaemonThreads;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A JSON-RPC client for the Steward service over its WebSocket ({@link ServiceSocket}). Calls are
 * asynchronous and may overlap: a call's frame is written on the calling thread, one at a time,
 * and its answer completes its future on the connection's reader thread. With
 * {@link Options#reconnect()} the client reconnects with back-off after the service goes away,
 * asking its endpoint supplier again (the service may come back on another port).
 */
public final class StewardClient implements ServiceLink, AutoCloseable {

  /**
   * Connection settings. Every request fails once it has waited {@code callTimeout} for its answer
   * — {@code executeTimeout} for {@code tool.execute} (a tool's own time limit, an approval that
   * waits for a click; ten minutes by default, the longest a confirm token lives) — so answers
   * that never come cannot pile up.
   */
  public record Options(
      String clientName,
      Duration connectTimeout,
      Duration callTimeout,
      boolean reconnect,
      Duration executeTimeout) {
    public static Options defaults() {
      return new Options(
          "steward-client",
          Duration.ofSeconds(5),
          Duration.ofSeconds(60),
          false,
          Duration.ofMinutes(10));
    }

    public Options withReconnect(boolean value) {
      return new Options(clientName, connectTimeout, callTimeout, value, executeTimeout);
    }

    public Options withClientName(String value) {
      return new Options(value, connectTimeout, callTimeout, reconnect, executeTimeout);
    }

    public Options withCallTimeout(Duration value) {
      return new Options(clientName, connectTimeout, value, reconnect, executeTimeout);
    }

    public Options withExecuteTimeout(Duration value) {
      return new Options(clientName, connectTimeout, callTimeout, reconnect, value);
    }
  }

  /** The connection's state, reported to {@link #onState} listeners. */
  public enum State {
    CONNECTED,
    DISCONNECTED,
    CLOSED
  }

  /** One call of a batch. */
  public record BatchCall(String method, @Nullable Object params) {}

  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

  private final Supplier<Endpoint> endpoints;
  private final Options options;
  /** Parses a message that arrives in many pieces while the rest still arrives. */
  private final ExecutorService parsers;

  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  private final List<Consumer<Notification>> notificationListeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<State>> stateListeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService scheduler;
  private final Deadlines deadlines;

  private volatile @Nullable ServiceSocket socket;
  private volatile boolean closed;
  /** The next reconnection's wait; back to the shortest once the service has answered a call. */
  private volatile long backoffMillis = 100;

  private StewardClient(Supplier<Endpoint> endpoints, Options options) {
    this.endpoints = endpoints;
    this.options = options;
    this.parsers = Executors.newCachedThreadPool(DaemonThreads.named("steward-client-parse"));
    this.scheduler = Executors.newSingleThreadScheduledExecutor(
        DaemonThreads.named("steward-client-" + options.clientName()));
    this.deadlines = new Deadlines();
  }

  public static StewardClient connect(Endpoint endpoint) {
    return connect(() -> endpoint, Options.defaults());
  }

  /** Connects now (throws {@link ClientException} when that fails) and, if asked, stays connected. */
  public static StewardClient connect(Supplier<Endpoint> endpoints, Options options) {
    StewardClient client = new StewardClient(endpoints, options);
    try {
      client.open();
    } catch (ClientException e) {
      client.shutdownExecutors();
      throw e;
    }
    return client;
  }

  @Override
  public boolean isConnected() {
    ServiceSocket ws = socket;
    return ws != null && ws.isOpen();
  }

  public void onNotification(Consumer<Notification> listener) {
    notificationListeners.add(listener);
  }

  /**
   * {@code listener} hears each change of state, in order. CONNECTED is told before the
   * connection reads its first message: a listener that calls the service must do so on a thread
   * of its own.
   */
  public void onState(Consumer<State> listener) {
    stateListeners.add(listener);
  }

  // ---- calls ------------------------------------------------------------------------------

  /** Sends a request; the future completes with its result, or fails with a {@link ClientException}. */
  @Override
  public CompletableFuture<JsonNode> call(String method, @Nullable Object params) {
    long id = ids.incrementAndGet();
    CompletableFuture<Response> response = register(id, timeoutOf(method));
    send(MessageCodec.write(new Request(LongNode.valueOf(id), method, paramsNode(params))))
        .whenComplete((v, e) -> failOnSendError(id, e));
    return response.thenApply(StewardClient::resultOf);
  }

  /** A blocking call with the configured call timeout, its result read as {@code type}. */
  @Override
  public <T> T call(String method, @Nullable Object params, Class<T> type) {
    return Json.convert(await(call(method, params)), type);
  }

  /** Sends one batch frame; answers its responses in the order of the calls. */
  public CompletableFuture<List<Response>> batch(List<BatchCall> calls) {
    List<Message> messages = new ArrayList<>();
    List<CompletableFuture<Response>> futures = new ArrayList<>();
    for (BatchCall c : calls) {
      long id = ids.incrementAndGet();
      futures.add(register(id, timeoutOf(c.method())));
      messages.add(new Request(LongNode.valueOf(id), c.method(), paramsNode(c.params())));
    }
    send(MessageCodec.writeBatch(messages)).whenComplete((v, e) -> {
      if (e != null) futures.forEach(f -> f.completeExceptionally(lost(e)));
    });
    return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
        .thenApply(v -> futures.stream().map(CompletableFuture::join).toList());
  }

  /** Sends a notification (no response). */
  @Override
  public CompletableFuture<Void> notify(String method, @Nullable Object params) {
    return send(MessageCodec.write(new Notification(method, paramsNode(params))))
        .thenApply(v -> null);
  }

  /** Registers a listener for a raw frame answer: responses whose id this client did not issue. */
  public <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(options.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException("interrupted while waiting for the service", e);
    } catch (TimeoutException e) {
      throw new ClientException("no answer from the service within " + options.callTimeout(), e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof ClientException ce) throw ce;
      throw new ClientException(String.valueOf(cause.getMessage()), cause);
    }
  }

  // ---- typed helpers ----------------------------------------------------------------------

  public Hello.Result hello() {
    return call(
        Methods.SESSION_HELLO, new Hello.Params(options.clientName(), "1"), Hello.Result.class);
  }

  public List<ToolDefinition> tools() {
    return call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class).tools();
  }

  public Preflight.Result preflight(String traceId, String tool, JsonNode args) {
    return call(
        Methods.TOOL_PREFLIGHT, new Preflight.Params(traceId, tool, args), Preflight.Result.class);
  }

  public Preflight.Result preflight(Preflight.Params params) {
    return call(Methods.TOOL_PREFLIGHT, params, Preflight.Result.class);
  }

  public Deny.Result deny(Deny.Params params) {
    return call(Methods.APPROVAL_DENY, params, Deny.Result.class);
  }

  public Grant.Result grant(Grant.Params params) {
    return call(Methods.CONFIRM_GRANT, params, Grant.Result.class);
  }

  @Override
  public ToolResult execute(Execute.Params params) {
    return call(Methods.TOOL_EXECUTE, params, ToolResult.class);
  }

  // ---- connection -------------------------------------------------------------------------

  private void open() {
    Endpoint endpoint = endpoints.get();
    verifyService(endpoint);
    Receiver receiver = new Receiver();
    ServiceSocket opened;
    try {
      opened = ServiceSocket.open(
          endpoint.uri(),
          Map.of("Authorization", "Bearer " + endpoint.secret()),
          options.connectTimeout(),
          options.callTimeout());
      // Known as this connection's, and said to be connected, before it can report closing.
      receiver.mine = opened;
      socket = opened;
    } catch (ServiceSocket.Refused e) {
      throw ClientException.handshake(e.status, e);
    } catch (IOException e) {
      throw new ClientException("cannot reach the service at " + endpoint.uri() + ": " + e, e);
    }
    announce(State.CONNECTED);
    opened.start(receiver);
  }

  /**
   * Asks the process at the endpoint to prove it holds this installation's secrets before the
   * secret is sent to it ({@link ServiceProof}); anything else listening there gets nothing.
   */
  private void verifyService(Endpoint endpoint) {
    byte[] raw = new byte[16];
    NONCES.nextBytes(raw);
    String nonce = java.util.HexFormat.of().formatHex(raw);
    java.net.URI hello = java.net.URI.create(
        "http://" + endpoint.uri().getRawAuthority() + ServiceProof.PATH + "?nonce=" + nonce);
    Map.Entry<Integer, String> answer;
    try {
      answer = ServiceSocket.get(hello, options.connectTimeout(), PROOF_LIMIT);
    } catch (IOException e) {
      throw new ClientException("cannot reach the service at " + endpoint.uri() + ": " + e, e);
    }
    int status = answer.getKey();
    boolean proven = false;
    if (status == 200) {
      try {
        for (JsonNode p : Json.parse(answer.getValue()).path("proofs")) {
          proven |= ServiceProof.matches(
              p.asText(""), endpoint.secret(), nonce, endpoint.uri().getPort());
        }
      } catch (IOException e) {
        proven = false;
      }
    }
    if (!proven) {
      throw ClientException.handshake(
          status == 200 ? 403 : status,
          new ClientException(
              "the process at " + endpoint.uri()
                  + " did not prove it is this installation's Steward service; the secret was not sent",
              null));
    }
  }

  private static final java.security.SecureRandom NONCES = new java.security.SecureRandom();

  /** The most of a proof answer read (a few proofs of a few dozen bytes each). */
  private static final int PROOF_LIMIT = 64 * 1024;

  /** How long a request may wait for its answer before it fails and its entry is dropped. */
  private Duration timeoutOf(String method) {
    return Methods.TOOL_EXECUTE.equals(method) ? options.executeTimeout() : options.callTimeout();
  }

  private CompletableFuture<Response> register(long id, Duration timeout) {
    CompletableFuture<Response> future = new CompletableFuture<>();
    pending.put(id, future);
    future.whenComplete((r, e) -> pending.remove(id));
    deadlines.watch(id, future, timeout.toNanos());
    return future.exceptionallyCompose(e -> {
      Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
      return CompletableFuture.failedFuture(
          cause instanceof TimeoutException
              ? new ClientException("no answer from the service within " + timeout, cause)
              : cause);
    });
  }

  private CompletableFuture<?> send(String text) {
    ServiceSocket ws = socket;
    if (closed || ws == null) {
      return CompletableFuture.failedFuture(
          new ClientException("not connected to the service", null));
    }
    try {
      ws.sendText(text);
      return CompletableFuture.completedFuture(null);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private void failOnSendError(long id, @Nullable Throwable error) {
    if (error != null) {
      CompletableFuture<Response> f = pending.get(id);
      if (f != null) f.completeExceptionally(lost(error));
    }
  }

  private static ClientException lost(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof ClientException ce) return ce;
    return new ClientException(
        "the connection to the service failed: " + cause.getMessage(), cause);
  }

  private static @Nullable JsonNode paramsNode(@Nullable Object params) {
    if (params == null) return JsonNodeFactory.instance.objectNode();
    // A record is written straight into the frame: building a tree of it first costs more than the
    // write.
    return params instanceof JsonNode node ? node : Json.pojo(params);
  }

  private static JsonNode resultOf(Response response) {
    RpcError error = response.error();
    if (error != null) throw ClientException.rpc(error);
    return java.util.Objects.requireNonNull(
        response.result(), "a response has a result or an error");
  }

  private void deliver(List<Message> messages) {
    for (Message m : messages) {
      if (m instanceof Response r) {
        CompletableFuture<Response> f =
            r.id().canConvertToLong() ? pending.get(r.id().asLong()) : null;
        if (f != null) {
          backoffMillis = 100;
          f.complete(r);
        } else if (r.isError() && r.id().isNull()) {
          // An error the service could not tie to an id (e.g. a malformed frame we sent by hand):
          // surface it to notification listeners so raw-frame users can see it.
          tell(new Notification("rpc.error", MessageCodec.toJson(r)));
        }
      } else if (m instanceof Notification n) {
        tell(n);
      }
    }
  }

  /** A listener's failure is its own: the connection and the other listeners go on. */
  private void announce(State state) {
    for (Consumer<State> l : stateListeners) {
      try {
        l.accept(state);
      } catch (RuntimeException e) {
        // as for notifications
      }
    }
  }

  /** A listener's failure is its own: the connection and the other listeners go on. */
  private void tell(Notification n) {
    for (Consumer<Notification> l : notificationListeners) {
      try {
        l.accept(n);
      } catch (RuntimeException e) {
        // nothing to tell it with; the next notification reaches it again
      }
    }
  }

  private void connectionLost(String why) {
    socket = null;
    ClientException error =
        new ClientException("the connection to the service closed: " + why, null);
    pending.values().forEach(f -> f.completeExceptionally(error));
    if (closed) return;
    announce(State.DISCONNECTED);
    if (options.reconnect()) scheduleReconnect();
  }

  private void scheduleReconnect() {
    long delay = backoffMillis;
    backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF.toMillis());
    scheduler.schedule(
        () -> {
          if (closed) return;
          try {
            open();
          } catch (ClientException e) {
            scheduleReconnect();
          }
        },
        delay,
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    closed = true;
    ServiceSocket ws = socket;
    socket = null;
    if (ws != null) ws.close();
    pending
        .values()
        .forEach(f -> f.completeExceptionally(new ClientException("client closed", null)));
    announce(State.CLOSED);
    shutdownExecutors();
  }

  private void shutdownExecutors() {
    scheduler.shutdownNow();
    parsers.shutdown();
  }

  private final class Receiver implements ServiceSocket.Receiver {
    private final Arrivals arrivals = new Arrivals(parsers, StewardClient.this::deliver);
    private volatile @Nullable ServiceSocket mine;

    @Override
    public void text(CharSequence piece, boolean last) {
      arrivals.text(piece, last);
    }

    @Override
    public void closed(String why) {
      arrivals.broken();
      ServiceSocket now = socket;
      if (now == null || now == mine) connectionLost(why);
    }
  }
}
