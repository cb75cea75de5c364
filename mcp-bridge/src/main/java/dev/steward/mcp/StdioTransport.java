package dev.steward.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.json.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * MCP on stdin and stdout. One thread reads, and hands each message to the server in the order the
 * client sent them, as the SDK's own stdio transport does; a {@code tools/call} must not hold it
 * (the bridge's tools send the call to the service and return; the SDK runs synchronous tools on a
 * pool of its own unless told to run them where they are called), so a cancellation is read while
 * calls run. What the server says is written by a writer thread of its own, in the order it was
 * said (a call's progress before its answer), so that a client slow to read stdout holds up
 * neither the reader nor the thread a call's answer arrives on — for the bridge, its connection
 * to the service. A line that is not JSON-RPC, or too long, is answered with an error and the next
 * is read.
 *
 * <p>A gated transport reads the first message (MCP's {@code initialize}, which a client sends
 * alone and then waits for) at once and the rest only once {@link #open opened}: {@code initialize}
 * is answered while the bridge still connects to the service, and no {@code tools/list} is
 * answered before the tools are there. Each message passes through {@code inbound} once parsed
 * (it may read or rewrite it).
 */
final class StdioTransport implements McpServerTransportProvider {

  /** The longest message read (the SDK's own stdio transport takes as much). */
  static final int MAX_LINE = 16 * 1024 * 1024;

  /** Calls that run at once (an MCP client rarely has more than a few in flight). */
  static final int MAX_CALLS = 16;

  /**
   * Messages waiting to be written; progress beyond it is dropped, and anything else but a call's
   * answer waits for room. The outbox holds this many more for the answers of the calls running.
   */
  private static final int OUTBOX = 1024;

  private final McpJsonMapper mapper;
  private final int maxLine;
  private final InputStream in;
  private final OutputStream out;
  /** Calls running at once. */
  private final Semaphore calls = new Semaphore(MAX_CALLS);
  /**
   * The calls not yet answered, by request id (a client may give two the same): an answer to one
   * is never dropped, and does not wait for room.
   */
  private final Map<Object, Integer> unanswered = new ConcurrentHashMap<>();
  /** What the writer thread writes, in turn; taken only while {@link #out} is held. */
  private final BlockingQueue<String> outbox = new LinkedBlockingQueue<>(OUTBOX + MAX_CALLS);
  /** One permit per message put in the outbox: the writer thread waits on it. */
  private final Semaphore queued = new Semaphore(0);
  /** Stdin has ended, and every message read from it has been handed on. */
  private final CountDownLatch inputEnded = new CountDownLatch(1);

  private final UnaryOperator<McpSchema.JSONRPCMessage> inbound;
  /** Counted down when the messages after the first may be read. */
  private final CountDownLatch ready;

  private final byte[] buffer = new byte[64 * 1024];
  private int at;
  private int end;
  private boolean firstRead;
  private volatile @Nullable McpServerSession session;
  /** Where a {@code tools/call} goes without the SDK, once the session is initialized. */
  private volatile @Nullable Shortcut shortcut;
  /**
   * The client's {@code clientInfo}, as the SDK's session keeps it: from the {@code initialize}
   * before the first {@code notifications/initialized}, never changed after.
   */
  private volatile McpSchema.@Nullable Implementation client;
  /** What the latest {@code initialize} said, until the session is initialized. */
  private McpSchema.@Nullable Implementation saidAtInitialize;
  /** The client has said {@code notifications/initialized}. */
  private volatile boolean initialized;
  /** Stdin has ended or the session closed: nothing more is read. */
  private volatile boolean closing;
  /** Stdout is gone: nothing more can be written. */
  private volatile boolean mute;

  StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out) {
    this(mapper, in, out, MAX_LINE);
  }

  StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLine) {
    this(mapper, in, out, maxLine, UnaryOperator.identity(), new CountDownLatch(0));
  }

  private StdioTransport(
      McpJsonMapper mapper,
      InputStream in,
      OutputStream out,
      int maxLine,
      UnaryOperator<McpSchema.JSONRPCMessage> inbound,
      CountDownLatch ready) {
    this.mapper = mapper;
    this.maxLine = maxLine;
    this.in = in;
    this.out = out;
    this.inbound = inbound;
    this.ready = ready;
  }

  /** A transport that reads past the first message only once {@link #open opened}. */
  static StdioTransport gated(
      McpJsonMapper mapper,
      InputStream in,
      OutputStream out,
      UnaryOperator<McpSchema.JSONRPCMessage> inbound) {
    return new StdioTransport(mapper, in, out, MAX_LINE, inbound, new CountDownLatch(1));
  }

  /** The bridge is ready: the client's messages after the first may be read. */
  void open() {
    ready.countDown();
  }

  /**
   * A {@code tools/call} read and answered without the SDK's server (its parsing into records,
   * its dispatch, its writing of the answer: about a third of the bridge's work on a call): the
   * whole JSON-RPC answer, or null for a call that must go the SDK's way.
   */
  interface Shortcut {
    @Nullable
    CompletableFuture<String> call(
        String sessionId, McpSchema.@Nullable Implementation client, JsonNode id, JsonNode params);
  }

  /** Calls read once the session is initialized go by {@code shortcut} where it takes them. */
  void shortcut(Shortcut shortcut) {
    this.shortcut = shortcut;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    session = factory.create(new Transport());
    Thread writer = new Thread(this::writeQueued, "steward-mcp-stdout");
    writer.setDaemon(true);
    writer.start();
    Thread reader = new Thread(this::serve, "steward-mcp-stdio");
    reader.setDaemon(true);
    reader.start();
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    closing = true;
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.closeGracefully();
  }

  private void serve() {
    while (!closing) {
      try {
        String line = nextLine();
        if (line == null || shortcut(line)) continue;
        McpSchema.@Nullable JSONRPCMessage message = parse(line);
        if (message == null) continue;
        noteSession(message);
        if (message instanceof McpSchema.JSONRPCRequest request
            && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
            && request.id() != null) {
          call(request, request.id());
        } else {
          handle(message, null);
        }
      } catch (IOException e) {
        closing = true;
        // Every message read before it has been handed on, and each call holds a permit by now.
        inputEnded.countDown();
        McpServerSession s = session;
        if (s != null) s.close();
        return;
      } catch (RuntimeException e) {
        // One message's failure ends neither the session nor the reading.
        System.err.println("steward mcp: a message could not be handled: " + e);
      }
    }
  }

  private void call(McpSchema.JSONRPCRequest request, Object id) {
    if (!calls.tryAcquire()) {
      busy(request, MAX_CALLS + " calls are running; wait for one to end");
      return;
    }
    unanswered.merge(id, 1, Integer::sum);
    handle(request, () -> {
      unanswered.computeIfPresent(id, (key, count) -> count == 1 ? null : count - 1);
      calls.release();
    });
  }

  /** Hands a message to the server; {@code ended} runs once it is handled, answered or not. */
  private void handle(McpSchema.JSONRPCMessage message, @Nullable Runnable ended) {
    McpServerSession s = session;
    if (s == null) {
      if (ended != null) ended.run();
      return;
    }
    Mono<Void> handled;
    try {
      handled = s.handle(message);
    } catch (RuntimeException e) {
      if (ended != null) ended.run();
      throw e;
    }
    if (ended != null) handled = handled.doFinally(signal -> ended.run());
    handled.subscribe(
        null, error -> System.err.println("steward mcp: a message could not be handled: " + error));
  }

  /**
   * Sends a {@code tools/call} by the shortcut; false for a line that is no such call, or one the
   * shortcut leaves to the SDK.
   */
  private boolean shortcut(String line) {
    Shortcut s = shortcut;
    McpServerSession open = session;
    if (s == null || open == null || !initialized || !line.contains("tools/call")) return false;
    JsonNode msg;
    try {
      msg = Json.parse(line);
    } catch (IOException | RuntimeException e) {
      return false; // the SDK's way answers what cannot be parsed
    }
    JsonNode id = msg.get("id");
    JsonNode params = msg.get("params");
    if (!msg.isObject()
        || !McpSchema.METHOD_TOOLS_CALL.equals(msg.path("method").asText(null))
        || !McpSchema.JSONRPC_VERSION.equals(msg.path("jsonrpc").asText(null))
        || id == null
        // As the SDK's request record takes them: a string, or an integer a long holds.
        || !(id.isTextual() || id.isInt() || id.isLong())
        || params == null
        || !params.isObject()) return false;
    if (!calls.tryAcquire()) {
      busy(id, MAX_CALLS + " calls are running; wait for one to end");
      return true;
    }
    CompletableFuture<String> answered;
    try {
      answered = s.call(open.getId(), client, id, params);
    } catch (RuntimeException e) {
      answered = CompletableFuture.completedFuture(
          McpTools.answer(id, "EXECUTION_ERROR: the call failed in the bridge: " + e));
    }
    if (answered == null) {
      calls.release();
      return false;
    }
    answered.whenComplete((json, error) -> {
      try {
        queue(
            json != null
                ? json
                : McpTools.answer(id, "EXECUTION_ERROR: the call failed in the bridge: " + error),
            Kind.ANSWER);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        calls.release();
      }
    });
    return true;
  }

  /** What the SDK's session learns at its start, kept for the shortcut. */
  private void noteSession(McpSchema.JSONRPCMessage message) {
    if (initialized) return;
    if (message instanceof McpSchema.JSONRPCRequest r
        && McpSchema.METHOD_INITIALIZE.equals(r.method())) {
      try {
        saidAtInitialize = mapper
            .convertValue(r.params(), new TypeRef<McpSchema.InitializeRequest>() {})
            .clientInfo();
      } catch (RuntimeException e) {
        // the SDK answers a malformed initialize; what an earlier one said stands
      }
    } else if (message instanceof McpSchema.JSONRPCNotification n
        && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(n.method())) {
      client = saidAtInitialize;
      initialized = true;
    }
  }

  /**
   * The next line; null after one that was answered with an error, or blank.
   *
   * @throws IOException when stdin ends or fails
   */
  private @Nullable String nextLine() throws IOException {
    if (firstRead) awaitOpen();
    String line = readLine();
    firstRead = true;
    if (line == null) {
      answerError(
          McpSchema.ErrorCodes.INVALID_REQUEST, "a message longer than " + maxLine + " bytes");
      return null;
    }
    return line.isBlank() ? null : line;
  }

  /** A line as the SDK's message; null after one that was answered with an error. */
  private McpSchema.@Nullable JSONRPCMessage parse(String line) {
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(mapper, line);
    } catch (Exception e) {
      answerError(McpSchema.ErrorCodes.PARSE_ERROR, "not a JSON-RPC message: " + e.getMessage());
      return null;
    }
    return inbound.apply(message);
  }

  private void awaitOpen() throws IOException {
    try {
      ready.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the bridge connected", e);
    }
  }

  /**
   * One line without its end; null for a line longer than {@link #maxLine}, which is read to its
   * end and dropped.
   *
   * @throws java.io.EOFException at the end of stdin
   */
  private @Nullable String readLine() throws IOException {
    java.io.ByteArrayOutputStream line = null;
    boolean tooLong = false;
    while (true) {
      if (at == end) {
        int n = in.read(buffer, 0, buffer.length);
        if (n < 0) {
          // A last message without its line's end is still a message.
          if (line != null && line.size() > 0 && !tooLong) {
            byte[] whole = line.toByteArray();
            return new String(whole, 0, trimmedEnd(whole), StandardCharsets.UTF_8);
          }
          throw new java.io.EOFException("the MCP client closed stdin");
        }
        at = 0;
        end = n;
      }
      int nl = at;
      while (nl < end && buffer[nl] != '\n') nl++;
      int length = nl - at;
      if (!tooLong) {
        if (line == null && nl < end && length <= maxLine) {
          String text = new String(buffer, at, trimmed(at, length), StandardCharsets.UTF_8);
          at = nl + 1;
          return text;
        }
        if (line == null) line = new java.io.ByteArrayOutputStream();
        if (line.size() + length > maxLine) {
          tooLong = true;
        } else {
          line.write(buffer, at, length);
        }
      }
      if (nl < end) {
        at = nl + 1;
        if (tooLong || line == null) return null;
        byte[] whole = line.toByteArray();
        return new String(whole, 0, trimmedEnd(whole), StandardCharsets.UTF_8);
      }
      at = end;
    }
  }

  /** The length of {@code length} bytes at {@code from} without a closing carriage return. */
  private int trimmed(int from, int length) {
    return length > 0 && buffer[from + length - 1] == '\r' ? length - 1 : length;
  }

  private static int trimmedEnd(byte[] line) {
    return line.length > 0 && line[line.length - 1] == '\r' ? line.length - 1 : line.length;
  }

  /** Answers a call that cannot run now with a tool error the client's model can read. */
  private void busy(McpSchema.JSONRPCRequest call, String why) {
    busy(Json.tree(call.id()), why);
  }

  private void busy(JsonNode id, String why) {
    try {
      queue(McpTools.answer(id, "UNAVAILABLE: " + why), Kind.OTHER);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for the end of stdin, once every message read from it has been handed on. */
  void awaitInputEnd() throws InterruptedException {
    inputEnded.await();
  }

  /**
   * Waits until no call runs and everything said is written, for at most {@code within}: stdin
   * has ended ({@link #awaitInputEnd}), and what the client asked before it let go is still
   * answered.
   */
  void finish(java.time.Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() - deadline < 0 && !mute) {
      if (calls.availablePermits() == MAX_CALLS && outbox.isEmpty()) {
        synchronized (out) {
          // the writer has taken the last one and written it under this lock
          if (outbox.isEmpty()) return;
        }
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** An error for a line whose id could not be read: JSON-RPC's answer has a null id then. */
  private void answerError(int code, String message) {
    try {
      // The SDK's response record refuses a null id, so this one is written as it goes.
      queue(
          "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + code + ",\"message\":"
              + mapper.writeValueAsString(message) + "}}",
          Kind.OTHER);
    } catch (IOException e) {
      mute = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** How a message waits in the outbox. */
  private enum Kind {
    /** Dropped when the outbox is full. */
    PROGRESS,
    /** A call's answer: takes the room kept for the calls running, and waits only past it. */
    ANSWER,
    /** Anything else: waits for room. */
    OTHER
  }

  /**
   * Puts a message in the outbox; false when it is full and the message is dropped. Compact JSON
   * escapes every line break inside strings: one message, one line.
   */
  private boolean queue(String json, Kind kind) throws InterruptedException {
    switch (kind) {
      case PROGRESS -> {
        if (outbox.size() >= OUTBOX || !outbox.offer(json)) return false;
      }
      case ANSWER -> {
        // Full only when the client has left more than a thousand messages unread (a call's room
        // is given back once its answer is queued, so a client that sends calls and reads nothing
        // fills it): then the thread the answer came on waits, and the service, which queues at
        // most 256 frames for a connection that does not read, drops the bridge's.
        while (!outbox.offer(json)) {
          if (mute) return false;
          Thread.sleep(5);
        }
      }
      case OTHER -> {
        while (outbox.size() >= OUTBOX || !outbox.offer(json)) {
          if (mute) return false;
          Thread.sleep(5);
        }
      }
    }
    queued.release();
    return true;
  }

  private void writeQueued() {
    try {
      while (true) {
        queued.acquire();
        queued.drainPermits();
        synchronized (out) {
          writeQueuedLocked();
          out.flush();
        }
      }
    } catch (InterruptedException | IOException e) {
      mute = true; // stdout is gone: nothing more can be said
    }
  }

  private void writeQueuedLocked() throws IOException {
    for (String json = outbox.poll(); json != null; json = outbox.poll())
      out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private final class Transport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromCallable(() -> {
        if (mute) return null;
        String json = mapper.writeValueAsString(message);
        queue(
            json,
            message instanceof McpSchema.JSONRPCResponse response
                    && response.id() != null
                    && unanswered.containsKey(response.id())
                ? Kind.ANSWER
                : message instanceof McpSchema.JSONRPCNotification n
                        && McpSchema.METHOD_NOTIFICATION_PROGRESS.equals(n.method())
                    ? Kind.PROGRESS
                    : Kind.OTHER);
        return null;
      });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
      return mapper.convertValue(data, type);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> closing = true);
    }

    @Override
    public void close() {
      closing = true;
    }
  }
}
