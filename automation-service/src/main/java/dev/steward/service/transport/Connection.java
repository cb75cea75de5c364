package dev.steward.service.transport;

import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Request;
import dev.steward.protocol.jsonrpc.Response;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;

/**
 * One WebSocket connection: frames in, JSON-RPC out. Tool calls run on the worker pool, so a
 * connection's calls overlap up to its concurrency limit and a {@code tool.cancel} is read while
 * the call it cancels runs; everything else (quick by nature) is answered on the Jetty thread that
 * read it. A batch fans out to the worker pool and is answered in one frame once all of it is done.
 * (Public only because Jetty calls the listener through method handles.)
 */
public final class Connection implements Session.Listener, dev.steward.service.rpc.Session {

  private static final Logger LOG = Logger.getLogger(Connection.class.getName());
  private static final AtomicLong IDS = new AtomicLong();
  private static final String INSTANCE =
      Long.toString(new java.security.SecureRandom().nextLong() & 0xffffffffL, 36);

  private final Role role;
  /**
   * Short, and apart from every earlier service process's: a client's taint is kept under its
   * connection's id across restarts, which must never fall to an unrelated new connection.
   */
  private final String id = "c" + IDS.incrementAndGet() + "-" + INSTANCE;

  private final Dispatcher dispatcher;
  private final ExecutorService workers;
  private final Limits limits;
  private final Semaphore inFlight;
  private final RateLimiter rate;
  private final RateLimiter holderRate;
  private final Consumer<Connection> onClose;
  /** Set when the WebSocket opens, before any frame arrives. */
  private volatile @org.jspecify.annotations.Nullable Session session;

  Connection(
      Role role,
      Dispatcher dispatcher,
      ExecutorService workers,
      Limits limits,
      RateLimiter holderRate,
      Consumer<Connection> onClose) {
    this.holderRate = holderRate;
    this.role = role;
    this.dispatcher = dispatcher;
    this.tally = new RefusalTally(
        (code, message) -> dispatcher.refuseInvalid(this, RpcError.of(code, message)));
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

  private volatile @org.jspecify.annotations.Nullable String client;

  @Override
  public String client() {
    String c = client;
    return c == null ? role.wire() : c;
  }

  @Override
  public void named(String name) {
    String clean = dev.steward.service.rpc.Session.cleanName(name);
    if (clean != null) client = clean;
  }

  @Override
  public void onWebSocketOpen(Session session) {
    this.session = session;
    // A client that stops reading its answers would have them queued without end: past this
    // many frames waiting, a send fails and the connection is dropped (sent). Not the window's:
    // every call's result is sent to it, and at thousands of calls a second a pause of its own
    // would leave more than this waiting (the ui secret's holder can do anything anyway).
    if (role != Role.UI && session instanceof WebSocketSession jetty)
      jetty.getCoreSession().setMaxOutgoingFrames(MAX_OUTGOING_FRAMES);
    session.demand();
  }

  /** Frames that may wait to be written to one client before it is taken not to read them. */
  static final int MAX_OUTGOING_FRAMES = 256;

  /** A frame could not be sent: the connection is dropped rather than left half working. */
  private void sendFailed(Throwable e) {
    LOG.log(Level.FINE, "send to " + id + " failed; dropping the connection", e);
    Session s = session;
    if (s != null && s.isOpen()) s.disconnect();
  }

  @Override
  public void onWebSocketText(String text) {
    // Jetty reads a connection's frames one at a time: the next frame is read only once this
    // method returns, so anything that can take a while must not run here.
    Session open = session;
    if (open != null) open.demand();
    MessageCodec.Frame frame = MessageCodec.parse(text);
    if (!rate.tryAcquire(frame.items().size())) {
      refuse(
          frame,
          RpcError.of(
              ErrorCodes.RATE_LIMITED,
              "more than " + limits.maxMessagesPerSecond()
                  + " messages a second on this connection; slow down"));
      return;
    }
    if (!holderRate.tryAcquire(frame.items().size())) {
      refuse(
          frame,
          RpcError.of(
              ErrorCodes.RATE_LIMITED,
              "more than " + limits.maxMessagesPerSecondPerRole() + " messages a second with the "
                  + role.wire() + " secret; slow down"));
      return;
    }
    if (!frame.batch()) {
      MessageCodec.Inbound item = frame.items().get(0);
      if (runsTools(item)) {
        handle(item).thenAccept(resp -> resp.ifPresent(r -> send(MessageCodec.writeUtf8(r))));
      } else {
        handleHere(item).ifPresent(resp -> send(MessageCodec.writeUtf8(resp)));
      }
      return;
    }
    List<CompletableFuture<Optional<Response>>> answers =
        new ArrayList<>(frame.items().size());
    for (MessageCodec.Inbound item : frame.items()) {
      answers.add(handle(item));
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenRun(() -> {
      List<Response> out = new ArrayList<>();
      answers.forEach(a -> a.join().ifPresent(out::add));
      if (!out.isEmpty()) send(MessageCodec.writeBatchUtf8(out));
    });
  }

  /** Answers every request of a frame with {@code error}, under its own id, so no caller waits for an answer that never comes. */
  private void refuse(MessageCodec.Frame frame, RpcError error) {
    tally.refused(error.code(), error.message(), frame.items().size(), System.nanoTime());
    List<Response> out = new ArrayList<>();
    for (MessageCodec.Inbound item : frame.items()) {
      if (item instanceof MessageCodec.Invalid invalid) out.add(invalid.response());
      else if (((MessageCodec.Valid) item).message() instanceof Request r)
        out.add(Response.error(r.id(), error));
    }
    if (out.isEmpty()) return;
    send(frame.batch() ? MessageCodec.writeBatchUtf8(out) : MessageCodec.writeUtf8(out.get(0)));
  }

  private static boolean runsTools(MessageCodec.Inbound item) {
    if (!(item instanceof MessageCodec.Valid valid)) return false;
    String method = valid.message() instanceof Request r
        ? r.method()
        : valid.message() instanceof Notification n ? n.method() : "";
    return Methods.TOOL_EXECUTE.equals(method) || Methods.TOOL_UNDO.equals(method);
  }

  /** Handles one message on the calling (Jetty) thread. */
  private Optional<Response> handleHere(MessageCodec.Inbound item) {
    if (item instanceof MessageCodec.Invalid invalid) {
      dispatcher.refuseInvalid(this, errorOf(invalid));
      return Optional.of(invalid.response());
    }
    var message = ((MessageCodec.Valid) item).message();
    if (!inFlight.tryAcquire()) {
      return message instanceof Request r ? Optional.of(tooMany(r)) : Optional.empty();
    }
    try {
      return dispatcher.dispatch(this, message);
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "dispatch failed", e);
      return message instanceof Request r
          ? Optional.of(
              Response.error(r.id(), RpcError.of(ErrorCodes.INTERNAL_ERROR, "Internal error")))
          : Optional.empty();
    } finally {
      inFlight.release();
    }
  }

  private Response tooMany(Request r) {
    RpcError error = RpcError.of(
        ErrorCodes.TOO_MANY_CALLS,
        "more than " + limits.maxConcurrentCalls()
            + " calls in flight on this connection; wait for some to finish");
    tally.refused(error.code(), error.message(), 1, System.nanoTime());
    return Response.error(r.id(), error);
  }

  /** Refusals for this connection's limits, on their way to the audit log. */
  private final RefusalTally tally;

  /** Handles one element of a batch on the worker pool, so a batch's calls run side by side. */
  private CompletableFuture<Optional<Response>> handle(MessageCodec.Inbound item) {
    if (item instanceof MessageCodec.Invalid invalid) {
      dispatcher.refuseInvalid(this, errorOf(invalid));
      return CompletableFuture.completedFuture(Optional.of(invalid.response()));
    }
    var message = ((MessageCodec.Valid) item).message();
    if (!inFlight.tryAcquire()) {
      return CompletableFuture.completedFuture(
          message instanceof Request r ? Optional.of(tooMany(r)) : Optional.empty());
    }
    CompletableFuture<Optional<Response>> out = new CompletableFuture<>();
    try {
      workers.execute(() -> {
        AfterAnswer.answering();
        try {
          // Completing sends the answer here (onWebSocketText waits on it), before what waited.
          out.complete(dispatcher.dispatch(this, message));
        } catch (Throwable t) {
          LOG.log(Level.SEVERE, "dispatch failed", t);
          out.complete(
              message instanceof Request r
                  ? Optional.of(Response.error(
                      r.id(), RpcError.of(ErrorCodes.INTERNAL_ERROR, "Internal error")))
                  : Optional.empty());
        } finally {
          inFlight.release();
          AfterAnswer.done();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      inFlight.release();
      out.complete(
          message instanceof Request r
              ? Optional.of(Response.error(
                  r.id(), RpcError.of(ErrorCodes.UNAVAILABLE, "the service is shutting down")))
              : Optional.empty());
    }
    return out;
  }

  @Override
  public void send(Notification notification) {
    send(MessageCodec.writeUtf8(notification));
  }

  /**
   * Sends one text message whose payload is {@code utf8} (owned by the frame from here on). It goes
   * as a frame through Jetty's core session, as {@code Session.sendText} itself does, so that a
   * message serialised straight to bytes is not made into a string and encoded again.
   */
  void send(ByteBuffer utf8) {
    Session s = session;
    if (s == null || !s.isOpen()) return;
    if (s instanceof WebSocketSession jetty) {
      jetty
          .getCoreSession()
          .sendFrame(
              new Frame(OpCode.TEXT, utf8),
              org.eclipse.jetty.util.Callback.from(() -> {}, this::sendFailed),
              false);
    } else {
      s.sendText(
          StandardCharsets.UTF_8.decode(utf8).toString(),
          Callback.from(() -> {}, this::sendFailed));
    }
  }

  @Override
  public void onWebSocketClose(int statusCode, String reason) {
    tally.flush(System.nanoTime());
    onClose.accept(this);
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    LOG.log(Level.FINE, "connection " + id + ": " + cause.getMessage());
  }

  /** An invalid frame element's answer is always an error. */
  private static RpcError errorOf(MessageCodec.Invalid invalid) {
    return java.util.Objects.requireNonNull(
        invalid.response().error(), "an invalid message is answered with an error");
  }
}
