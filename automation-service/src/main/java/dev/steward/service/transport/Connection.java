package dev.steward.service.transport;

import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Role;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * One WebSocket connection: frames in, JSON-RPC out. Jetty delivers a connection's frames one at
 * a time; each request then runs on the worker pool so slow calls do not hold up fast ones, up to
 * the connection's concurrency limit. A batch is answered in one frame once all of it is done.
 * (Public only because Jetty calls the listener through method handles.)
 */
public final class Connection implements Session.Listener.AutoDemanding, dev.steward.service.rpc.Session {

  private static final Logger LOG = Logger.getLogger(Connection.class.getName());
  private static final AtomicLong IDS = new AtomicLong();

  private final Role role;
  private final String id = "c" + IDS.incrementAndGet();
  private final Dispatcher dispatcher;
  private final ExecutorService workers;
  private final Limits limits;
  private final Semaphore inFlight;
  private final RateLimiter rate;
  private final Consumer<Connection> onClose;
  private volatile Session session;

  Connection(Role role, Dispatcher dispatcher, ExecutorService workers, Limits limits, Consumer<Connection> onClose) {
    this.role = role;
    this.dispatcher = dispatcher;
    this.workers = workers;
    this.limits = limits;
    this.inFlight = new Semaphore(limits.maxConcurrentCalls());
    this.rate = new RateLimiter(limits.maxMessagesPerSecond());
    this.onClose = onClose;
  }

  @Override
  public Role role() {
    return role;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public void onWebSocketOpen(Session session) {
    this.session = session;
  }

  @Override
  public void onWebSocketText(String text) {
    MessageCodec.Frame frame = MessageCodec.parse(text);
    if (!rate.tryAcquire(frame.items().size())) {
      sendText(MessageCodec.write(Response.error(null, RpcError.of(ErrorCodes.RATE_LIMITED,
          "more than " + limits.maxMessagesPerSecond() + " messages a second on this connection; slow down"))));
      return;
    }
    List<CompletableFuture<Optional<Response>>> answers = new ArrayList<>(frame.items().size());
    for (MessageCodec.Inbound item : frame.items()) {
      answers.add(handle(item));
    }
    if (!frame.batch()) {
      answers.get(0).thenAccept(r -> r.ifPresent(resp -> sendText(MessageCodec.write(resp))));
      return;
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .thenRun(
            () -> {
              List<Response> out = new ArrayList<>();
              answers.forEach(a -> a.join().ifPresent(out::add));
              if (!out.isEmpty()) sendText(MessageCodec.writeBatch(out));
            });
  }

  private CompletableFuture<Optional<Response>> handle(MessageCodec.Inbound item) {
    if (item instanceof MessageCodec.Invalid invalid) {
      dispatcher.refuseInvalid(this, invalid.response().error());
      return CompletableFuture.completedFuture(Optional.of(invalid.response()));
    }
    var message = ((MessageCodec.Valid) item).message();
    if (!inFlight.tryAcquire()) {
      if (message instanceof Request r) {
        return CompletableFuture.completedFuture(Optional.of(Response.error(r.id(), RpcError.of(ErrorCodes.TOO_MANY_CALLS,
            "more than " + limits.maxConcurrentCalls() + " calls in flight on this connection; wait for some to finish"))));
      }
      return CompletableFuture.completedFuture(Optional.empty());
    }
    CompletableFuture<Optional<Response>> out = new CompletableFuture<>();
    try {
      workers.execute(
          () -> {
            try {
              out.complete(dispatcher.dispatch(this, message));
            } catch (Throwable t) {
              LOG.log(Level.SEVERE, "dispatch failed", t);
              out.complete(message instanceof Request r
                  ? Optional.of(Response.error(r.id(), RpcError.of(ErrorCodes.INTERNAL_ERROR, "Internal error")))
                  : Optional.empty());
            } finally {
              inFlight.release();
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      inFlight.release();
      out.complete(message instanceof Request r
          ? Optional.of(Response.error(r.id(), RpcError.of(ErrorCodes.UNAVAILABLE, "the service is shutting down")))
          : Optional.empty());
    }
    return out;
  }

  @Override
  public void send(Notification notification) {
    sendText(MessageCodec.write(notification));
  }

  private void sendText(String text) {
    Session s = session;
    if (s == null || !s.isOpen()) return;
    s.sendText(text, Callback.from(() -> {}, e -> LOG.log(Level.FINE, "send to " + id + " failed", e)));
  }

  @Override
  public void onWebSocketClose(int statusCode, String reason) {
    onClose.accept(this);
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    LOG.log(Level.FINE, "connection " + id + ": " + cause.getMessage());
  }
}
