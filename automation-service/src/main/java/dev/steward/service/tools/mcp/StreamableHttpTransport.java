package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport to a server at a URL, with what the SDK's own does not do: a
 * stream the server closes before its answer is resumed (SEP-1699) — after the {@code retry} time
 * the server asked for, with a GET carrying the last event's id — and an answer that cannot come
 * (a stream that cannot be resumed, a body without it) ends its request with a clear error at once
 * rather than at the time limit; a cancelled call's stream is closed. The server is not trusted:
 * each line and message read is bounded, so are the streams open at once and each one's life, the
 * pause before opening its own stream again never shrinks to nothing, and its session id (from its
 * first successful answer that gives one) and protocol version (from its first answer to
 * initialize) are taken only in forms that can go in a header.
 */
final class StreamableHttpTransport implements TappedTransport {

  private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());

  /**
   * The most one message (one event's data) may take: less than on stdio, as several answers may
   * be read at once (a result is cut to far less before the model sees it).
   */
  static final int MAX_MESSAGE_BYTES = 4 << 20;
  /** Answer streams open at once; a request past them fails rather than open another. */
  static final int MAX_STREAMS = 8;
  /** Times one answer's stream is resumed in a row without a message before its request fails. */
  static final int MAX_RESUMES = 5;
  /**
   * The error code of a request whose answer was lost with its stream: a JSON-RPC server error of
   * this transport's own, so the caller reads it as a server out of reach, not as a refusal.
   */
  static final int LOST = -32099;
  /**
   * Carried in the data of the errors this transport makes itself, which never leave the service:
   * a server that sends {@link #LOST} itself is read as any other refusal.
   */
  private static final String OWN = java.util.UUID.randomUUID().toString();

  private static final Duration LEAST_RETRY = Duration.ofMillis(250);
  private static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
  private static final Duration MOST_RETRY = Duration.ofSeconds(30);
  private static final Duration HEADERS_TIME = Duration.ofSeconds(30);
  private static final String SESSION = "Mcp-Session-Id";
  private static final String VERSION = "MCP-Protocol-Version";

  private static final ScheduledExecutorService DEADLINES = deadlines();

  private static ScheduledExecutorService deadlines() {
    var pool = new java.util.concurrent.ScheduledThreadPoolExecutor(
        1, dev.steward.protocol.util.DaemonThreads.named("mcp-http-deadline"));
    pool.setRemoveOnCancelPolicy(true);
    return pool;
  }

  /** Whether this error is one this transport made for a call whose answer was lost. */
  static boolean lost(io.modelcontextprotocol.spec.McpError e) {
    var error = e.getJsonRpcError();
    return error != null && Integer.valueOf(LOST).equals(error.code()) && OWN.equals(error.data());
  }

  private final HttpClient client;
  private final URI endpoint;
  private final McpJsonMapper json;
  private final Duration streamLife;
  private final Consumer<String> lost;
  private final java.util.function.Supplier<java.util.Optional<String>> bearer;
  /** The entry's own headers (its key, most often); a sign-in's token replaces its Authorization. */
  private final java.util.Map<String, String> headers;
  /** One thread per open stream: at most {@link #MAX_STREAMS} answers and the server's own. */
  private final ExecutorService readers = Executors.newFixedThreadPool(
      MAX_STREAMS + 1, dev.steward.protocol.util.DaemonThreads.named("mcp-http-read"));

  private final Semaphore streams = new Semaphore(MAX_STREAMS);
  private final Set<InputStream> open = ConcurrentHashMap.newKeySet();
  /** The stream each request's answer is being read from, closed when the call is cancelled. */
  private final java.util.Map<String, InputStream> answering = new ConcurrentHashMap<>();
  /** Requests cancelled: their streams are not resumed and they do not fail again. */
  private final Set<String> cancelled = ConcurrentHashMap.newKeySet();

  private final AtomicBoolean listening = new AtomicBoolean();
  private volatile @Nullable Function<
          Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>>
      handler;
  private volatile java.util.function.Predicate<JsonNode> tap = m -> false;
  private volatile @Nullable String session;
  private volatile @Nullable String version;
  private volatile @Nullable Object initializeId;
  private volatile boolean closing;
  /** The access token of the last request sent with one. */
  private volatile @Nullable String lastBearer;

  /**
   * @param streamLife how long an answer's stream may stay open (the caller's time limit for a
   *     request): a server that keeps one open longer has it closed
   * @param lost told when the server has ended the session or its own stream for good
   * @param bearer the access token of the user's sign-in to this server, read for each request
   * @param headers sent with every request, as the user's entry gives them
   */
  StreamableHttpTransport(
      URI endpoint,
      McpJsonMapper json,
      Duration streamLife,
      Consumer<String> lost,
      java.util.function.Supplier<java.util.Optional<String>> bearer,
      java.util.Map<String, String> headers) {
    this.bearer = bearer;
    this.headers = java.util.Map.copyOf(headers);
    this.endpoint = endpoint;
    this.json = json;
    this.streamLife = streamLife;
    this.lost = lost;
    this.client = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  @Override
  public List<String> protocolVersions() {
    return List.of("2025-03-26", "2025-06-18", "2025-11-25");
  }

  @Override
  public void tap(java.util.function.Predicate<JsonNode> first) {
    tap = first;
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.fromRunnable(() -> {
      if (closing) throw new IllegalStateException("this connection to the server has ended");
      this.handler = handler;
    });
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.defer(() -> {
      if (closing) return Mono.error(new McpTransportException("the connection has ended"));
      String body;
      try {
        body = json.writeValueAsString(message);
      } catch (IOException e) {
        return Mono.error(new McpTransportException("cannot encode a message", e));
      }
      Object id = message instanceof McpSchema.JSONRPCRequest r ? r.id() : null;
      if (message instanceof McpSchema.JSONRPCNotification n
          && "notifications/cancelled".equals(n.method())
          && n.params() instanceof java.util.Map<?, ?> p
          && p.get("requestId") != null) {
        stopReading(p.get("requestId"));
      }
      boolean initialized = message instanceof McpSchema.JSONRPCNotification n
          && "notifications/initialized".equals(n.method());
      if (message instanceof McpSchema.JSONRPCRequest r
          && "initialize".equals(r.method())
          && version == null) {
        initializeId = r.id();
      }
      HttpRequest request = request(endpoint)
          .timeout(HEADERS_TIME)
          .POST(HttpRequest.BodyPublishers.ofString(body))
          .header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream")
          .build();
      return Mono.fromFuture(client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()))
          .onErrorMap(
              e -> new McpTransportException("the server could not be reached: " + describe(e), e))
          .flatMap(response -> answered(response, id))
          .doOnSuccess(done -> {
            if (initialized) listen();
          });
    });
  }

  /** The call was cancelled: its stream is closed, not resumed, and it is not failed again. */
  private void stopReading(Object id) {
    String key = key(id);
    InputStream in = answering.remove(key);
    if (in == null) return; // answered already, or answered whole
    cancelled.add(key);
    quietlyClose(in);
  }

  private static String key(Object id) {
    return id instanceof Number n ? Long.toString(n.longValue()) : String.valueOf(id);
  }

  /** What the server answered a POST: its body is read in the background, failures said now. */
  private Mono<Void> answered(HttpResponse<InputStream> response, @Nullable Object id) {
    int status = response.statusCode();
    InputStream body = response.body();
    if (status / 100 == 2) {
      response.headers().firstValue(SESSION).ifPresent(s -> {
        if (session == null && headerSafe(s)) session = s;
      });
    }
    if (status == 401 || status == 403) {
      quietlyClose(body);
      // Challenges may come in several headers; they are one list (RFC 9110 §5.3).
      List<String> challenges = response.headers().allValues("WWW-Authenticate");
      return Mono.error(
          new AuthChallenge(status, challenges.isEmpty() ? null : String.join(", ", challenges)));
    }
    if (status / 100 != 2) {
      quietlyClose(body);
      String why = status == 404 && session != null
          ? "the server ended the session (404)"
          : "the server answered HTTP " + status;
      return Mono.error(new McpTransportException(why));
    }
    if (id == null) {
      // A notification or a response of ours: nothing is to come back (the server says 202).
      quietlyClose(body);
      return Mono.empty();
    }
    String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    boolean stream = type.startsWith("text/event-stream");
    if (!stream && !type.startsWith("application/json")) {
      quietlyClose(body);
      fail(id, "the server answered the request with no message (HTTP " + status + ")");
      return Mono.empty();
    }
    if (!streams.tryAcquire()) {
      quietlyClose(body);
      fail(id, "the server holds " + MAX_STREAMS + " answers open already");
      return Mono.empty();
    }
    try {
      readers.execute(() -> {
        try {
          if (stream) answer(body, id);
          else whole(body, id);
        } finally {
          streams.release();
        }
      });
    } catch (RejectedExecutionException e) {
      streams.release();
      quietlyClose(body);
      return Mono.error(new McpTransportException("the connection has ended"));
    }
    return Mono.empty();
  }

  /** A JSON body: one message, or several in an array; one of them must answer {@code id}. */
  private void whole(InputStream in, Object id) {
    boolean answered = false;
    try (in) {
      byte[] bytes = in.readNBytes(MAX_MESSAGE_BYTES + 1);
      if (bytes.length > MAX_MESSAGE_BYTES) {
        fail(id, "the server's answer is over " + MAX_MESSAGE_BYTES + " bytes");
        return;
      }
      String text = new String(bytes, StandardCharsets.UTF_8).strip();
      if (text.startsWith("[")) {
        for (Object one : json.readValue(text, new TypeRef<List<Object>>() {})) {
          answered |= answers(deliver(json.writeValueAsString(one)), id);
        }
      } else {
        answered = answers(deliver(text), id);
      }
    } catch (IOException | RuntimeException e) {
      if (!closing) LOG.log(Level.FINE, "an MCP server's answer could not be read", e);
    }
    if (!answered) fail(id, "the server's answer held no response to the request");
  }

  /**
   * The stream carrying the answer to request {@code id}: read to its end (or to the request's
   * time limit), then, while the answer has not come, resumed with a GET from its last event
   * after the server's retry time.
   */
  private void answer(InputStream first, Object id) {
    Stream stream = new Stream(id);
    long deadline = System.nanoTime() + streamLife.toNanos();
    InputStream in = first;
    String key = key(id);
    try {
      for (int resumes = 0; ; resumes++) {
        answering.put(key, in);
        if (cancelled.contains(key)) return;
        if (!resume(in, stream, deadline, resumes)) return;
        in = java.util.Objects.requireNonNull(stream.next);
        // A stream that brought messages before it ended was making progress: the count restarts.
        if (stream.messages > stream.seenAtResume) resumes = -1;
        stream.seenAtResume = stream.messages;
      }
    } finally {
      answering.remove(key);
      cancelled.remove(key);
    }
  }

  /**
   * Reads one stream of an answer; answers whether to go on with the next one the server
   * resumed ({@code stream.next}), having failed the request when it cannot.
   */
  private boolean resume(InputStream in, Stream stream, long deadline, int resumes) {
    Object id = java.util.Objects.requireNonNull(stream.id);
    read(in, stream, deadline);
    if (closing || stream.answered || cancelled.contains(key(id))) return false;
    String last = stream.lastId;
    if (last == null || resumes >= MAX_RESUMES || System.nanoTime() - deadline > 0) {
      fail(id, "the server closed the stream before it answered");
      return false;
    }
    sleep(stream.retry);
    try {
      HttpResponse<InputStream> again = client.send(
          request(endpoint)
              .timeout(HEADERS_TIME)
              .GET()
              .header("Accept", "text/event-stream")
              .header("Last-Event-ID", last)
              .build(),
          HttpResponse.BodyHandlers.ofInputStream());
      if (again.statusCode() != 200) {
        quietlyClose(again.body());
        fail(id, "the server did not resume its stream (HTTP " + again.statusCode() + ")");
        return false;
      }
      stream.next = again.body();
      return true;
    } catch (IOException | RuntimeException e) {
      fail(id, "the server could not be reached to resume its stream: " + describe(e));
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What one stream has said so far: its last event's id, its retry time, whether it answered. */
  private static final class Stream {
    final @Nullable Object id;

    @Nullable
    String lastId;

    Duration retry = DEFAULT_RETRY;
    boolean answered;
    int messages;
    int seenAtResume;

    @Nullable
    InputStream next;

    Stream(@Nullable Object id) {
      this.id = id;
    }
  }

  /** Reads server-sent events until the stream ends, breaks, or is closed at its deadline. */
  private void read(InputStream in, Stream stream, long deadline) {
    open.add(in);
    var closer = deadline == Long.MAX_VALUE
        ? null
        : DEADLINES.schedule(
            () -> quietlyClose(in),
            Math.max(0, deadline - System.nanoTime()),
            TimeUnit.NANOSECONDS);
    try (in) {
      Lines lines = new Lines(in);
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = lines.next()) != null) {
        if (line.isEmpty()) {
          if (data.length() > 0) {
            JsonNode m = deliver(data.toString());
            data.setLength(0);
            if (m != null) stream.messages++;
            if (stream.id != null && answers(m, stream.id)) stream.answered = true;
          }
          continue;
        }
        if (line.startsWith(":")) continue;
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        switch (field) {
          case "data" -> {
            if (data.length() > 0) data.append('\n');
            data.append(value);
            if (data.length() > MAX_MESSAGE_BYTES) {
              LOG.warning("an MCP server sent an event over " + MAX_MESSAGE_BYTES + " bytes");
              return;
            }
          }
          case "id" -> {
            if (value.length() <= 256 && headerSafe(value)) stream.lastId = value;
          }
          case "retry" -> {
            if (value.matches("\\d{1,9}")) {
              long ms = Long.parseLong(value);
              stream.retry = Duration.ofMillis(
                  Math.max(LEAST_RETRY.toMillis(), Math.min(MOST_RETRY.toMillis(), ms)));
            }
          }
          default -> {}
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!closing) LOG.log(Level.FINE, "an MCP server's stream ended", e);
    } finally {
      if (closer != null) closer.cancel(false);
      open.remove(in);
    }
  }

  /**
   * Lines of an event stream (LF, CRLF or CR), each at most one message long: a server that
   * sends more on one line ends the stream rather than fill the memory.
   */
  private static final class Lines {
    private final InputStream in;
    private final byte[] buffer = new byte[8192];
    private int at;
    private int end;
    private boolean afterCr;

    Lines(InputStream in) {
      this.in = in;
    }

    @Nullable
    String next() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream(256);
      while (true) {
        if (at == end) {
          end = in.read(buffer);
          at = 0;
          if (end <= 0) {
            end = 0;
            return line.size() > 0 ? line.toString(StandardCharsets.UTF_8) : null;
          }
        }
        byte b = buffer[at++];
        if (afterCr) {
          afterCr = false;
          if (b == '\n') continue;
        }
        if (b == '\n' || b == '\r') {
          afterCr = b == '\r';
          return line.toString(StandardCharsets.UTF_8);
        }
        line.write(b);
        if (line.size() > MAX_MESSAGE_BYTES + 6) {
          throw new IOException("a line over " + MAX_MESSAGE_BYTES + " bytes");
        }
      }
    }
  }

  /** Whether this message (as read) is the response to request {@code id}. */
  private static boolean answers(@Nullable JsonNode m, Object id) {
    if (m == null || m.has("method") || !(m.has("result") || m.has("error"))) return false;
    JsonNode answered = m.path("id");
    if (answered.isTextual()) return sameId(id, answered.textValue());
    return answered.canConvertToExactIntegral() && sameId(id, answered.longValue());
  }

  /** JSON-RPC ids as the wire has them: a number read back may be another Java type. */
  private static boolean sameId(@Nullable Object a, @Nullable Object b) {
    if (a instanceof Number x && b instanceof Number y) return x.longValue() == y.longValue();
    return a != null && a.equals(b);
  }

  /**
   * Hands one message to the client (or the tap), and returns it as read; text that is not
   * JSON-RPC is dropped.
   */
  private @Nullable JsonNode deliver(String text) {
    var h = handler;
    if (h == null || text.isBlank()) return null;
    JsonNode read;
    McpSchema.JSONRPCMessage message;
    try {
      read = ServerLink.WIRE.readTree(text);
      if (read == null || !read.isObject()) throw new IOException("not a JSON object");
      Object init = initializeId;
      if (init != null && answers(read, init) && read.path("result").isObject()) {
        initializeId = null;
        initialized(read.get("result"));
      }
      if (tap.test(read)) return read;
      message = TappedTransport.message(json, read);
    } catch (IOException | RuntimeException e) {
      LOG.fine("an MCP server sent an event that is not JSON-RPC; ignored");
      return null;
    }
    h.apply(Mono.just(message)).subscribe();
    return read;
  }

  /**
   * After the (first) answer to initialize: the version goes with every request if it is one this
   * transport speaks.
   */
  private void initialized(Object result) {
    try {
      McpSchema.InitializeResult init =
          json.convertValue(result, new TypeRef<McpSchema.InitializeResult>() {});
      if (protocolVersions().contains(init.protocolVersion())) version = init.protocolVersion();
    } catch (RuntimeException e) {
      // the client reads the answer itself and says what is wrong with it
    }
  }

  /** Opens the server's own stream once, after the client has said it is initialized. */
  private void listen() {
    if (!listening.compareAndSet(false, true)) return;
    try {
      readers.execute(this::listenLoop);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  /**
   * The server's own stream (notifications it sends unasked), opened again when it ends: after its
   * retry time (at least a second) when it brought messages, after a growing pause when it brought
   * none or could not be opened, never again when the server does not offer one (405). A session
   * the server ended (404) is said to the caller.
   */
  private void listenLoop() {
    Stream stream = new Stream(null);
    Duration pause = DEFAULT_RETRY;
    while (!closing) {
      HttpRequest.Builder b =
          request(endpoint).timeout(HEADERS_TIME).GET().header("Accept", "text/event-stream");
      String last = stream.lastId;
      if (last != null) b.header("Last-Event-ID", last);
      try {
        HttpResponse<InputStream> r =
            client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() == 405 || r.statusCode() == 401 || r.statusCode() == 403) {
          // Not offered, or not to this sign-in: the POSTs say what the server wants.
          quietlyClose(r.body());
          return;
        }
        if (r.statusCode() == 404 && session != null) {
          quietlyClose(r.body());
          if (!closing) lost.accept("the server ended the session (404)");
          return;
        }
        if (r.statusCode() == 200) {
          int before = stream.messages;
          read(r.body(), stream, Long.MAX_VALUE);
          if (stream.messages > before) {
            pause = stream.retry.compareTo(DEFAULT_RETRY) < 0 ? DEFAULT_RETRY : stream.retry;
            sleep(pause);
            continue;
          }
        } else {
          quietlyClose(r.body());
        }
      } catch (IOException | RuntimeException e) {
        // unreachable for now: tried again after the pause
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      sleep(pause);
      pause = pause.multipliedBy(2).compareTo(MOST_RETRY) > 0 ? MOST_RETRY : pause.multipliedBy(2);
    }
  }

  /** Ends request {@code id} with an error the client shows, rather than waiting for its answer. */
  private void fail(Object id, String why) {
    var h = handler;
    if (h == null || closing) return;
    McpSchema.JSONRPCResponse failure = new McpSchema.JSONRPCResponse(
        McpSchema.JSONRPC_VERSION,
        id,
        null,
        new McpSchema.JSONRPCResponse.JSONRPCError(LOST, why, OWN));
    if (!tap.test(ServerLink.WIRE.valueToTree(failure)))
      h.apply(Mono.just(failure)).subscribe();
  }

  private HttpRequest.Builder request(URI uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri);
    String s = session;
    if (s != null) b.header(SESSION, s);
    String v = version;
    if (v != null) b.header(VERSION, v);
    java.util.Optional<String> token = bearer.get();
    headers.forEach((name, value) -> {
      if (token.isEmpty() || !name.equalsIgnoreCase("Authorization")) b.header(name, value);
    });
    token.ifPresent(t -> {
      b.header("Authorization", "Bearer " + t);
      lastBearer = t;
    });
    return b;
  }

  /** Visible ASCII only, as a session id must be (and as anything put in a header must be). */
  private static boolean headerSafe(String s) {
    return !s.isEmpty() && s.length() <= 256 && s.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
  }

  private void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void quietlyClose(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      // nothing more to read
    }
  }

  private static String describe(Throwable e) {
    Throwable c = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
    return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  @Override
  public void close() {
    if (closing) return;
    closing = true;
    readers.shutdownNow();
    open.forEach(StreamableHttpTransport::quietlyClose);
    String s = session;
    if (s != null) {
      // The server may end the session; it is not waited for. A connection closed because the
      // user signed out still ends its session with the token it was opened with: the server
      // would refuse the end of a signed-in session without it.
      try {
        HttpRequest.Builder end = request(endpoint).timeout(HEADERS_TIME).DELETE();
        String last = lastBearer;
        if (bearer.get().isEmpty() && last != null)
          end.setHeader("Authorization", "Bearer " + last);
        client.sendAsync(end.build(), HttpResponse.BodyHandlers.discarding());
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "the MCP session could not be ended", e);
      }
    }
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }
}
