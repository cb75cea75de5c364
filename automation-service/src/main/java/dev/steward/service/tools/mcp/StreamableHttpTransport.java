package dev.steward.service.tools.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport to a server at a URL, with what the SDK's own does not do: a
 * stream the server closes before its answer is resumed (SEP-1699) — after the {@code retry} time
 * the server asked for, with a GET carrying the last event's id — and one that cannot be resumed
 * ends its request with a clear error at once rather than at the time limit. Each message read is
 * bounded; a server's session id and protocol version go with every request after they are known;
 * the server's own stream (a GET, for notifications such as a changed tool list) is kept open and
 * opened again after it ends, at growing intervals.
 */
final class StreamableHttpTransport implements McpClientTransport {

  private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());

  /** The most one message may take, as for a server on stdio. */
  static final int MAX_MESSAGE_BYTES = ChildProcessTransport.MAX_MESSAGE_BYTES;
  /** Times one answer's stream is resumed before its request fails. */
  static final int MAX_RESUMES = 5;
  /**
   * The error code of a request whose answer was lost with its stream: a JSON-RPC server error of
   * this transport's own, so the caller reads it as a server out of reach, not as a refusal.
   */
  static final int LOST = -32099;

  private static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
  private static final Duration MOST_RETRY = Duration.ofSeconds(30);
  private static final String SESSION = "Mcp-Session-Id";
  private static final String VERSION = "MCP-Protocol-Version";

  private final HttpClient client;
  private final URI endpoint;
  private final McpJsonMapper json;
  private final ExecutorService readers =
      Executors.newCachedThreadPool(dev.steward.protocol.util.DaemonThreads.named("mcp-http-read"));
  private final Set<InputStream> open = ConcurrentHashMap.newKeySet();
  private volatile @Nullable Function<
          Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>>
      handler;
  private volatile @Nullable String session;
  private volatile @Nullable String version;
  private volatile @Nullable Object initializeId;
  private volatile boolean listening;
  private volatile boolean closing;

  StreamableHttpTransport(URI endpoint, McpJsonMapper json) {
    this.endpoint = endpoint;
    this.json = json;
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
      if (message instanceof McpSchema.JSONRPCRequest r && "initialize".equals(r.method())) {
        initializeId = r.id();
      }
      HttpRequest.Builder b = request(endpoint)
          .POST(HttpRequest.BodyPublishers.ofString(body))
          .header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream");
      return Mono.fromFuture(client.sendAsync(b.build(), HttpResponse.BodyHandlers.ofInputStream()))
          .onErrorMap(
              e -> new McpTransportException("the server could not be reached: " + describe(e), e))
          .flatMap(response -> answered(response, id));
    });
  }

  /** What the server answered a POST: its body is read in the background, failures said now. */
  private Mono<Void> answered(HttpResponse<InputStream> response, @Nullable Object id) {
    response.headers().firstValue(SESSION).ifPresent(s -> {
      if (session == null) session = s;
    });
    int status = response.statusCode();
    if (status / 100 != 2) {
      quietlyClose(response.body());
      String why = status == 404 && session != null
          ? "the server ended the session (404)"
          : "the server answered HTTP " + status;
      return Mono.error(new McpTransportException(why));
    }
    String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    if (status == 202 || type.isEmpty()) {
      quietlyClose(response.body());
      return Mono.empty();
    }
    readers.execute(() -> {
      if (type.startsWith("text/event-stream")) answer(response.body(), id);
      else whole(response.body());
    });
    return Mono.empty();
  }

  /** A JSON body: one message, or several in an array. */
  private void whole(InputStream in) {
    try (in) {
      byte[] bytes = in.readNBytes(MAX_MESSAGE_BYTES + 1);
      if (bytes.length > MAX_MESSAGE_BYTES) {
        LOG.warning("an MCP server's answer is over " + MAX_MESSAGE_BYTES + " bytes; dropped");
        return;
      }
      String text = new String(bytes, StandardCharsets.UTF_8).strip();
      if (text.startsWith("[")) {
        for (Object one : json.readValue(text, new TypeRef<List<Object>>() {})) {
          deliver(json.writeValueAsString(one));
        }
      } else if (!text.isEmpty()) {
        deliver(text);
      }
    } catch (IOException | RuntimeException e) {
      if (!closing) LOG.log(Level.FINE, "an MCP server's answer could not be read", e);
    }
  }

  /**
   * The stream carrying the answer to request {@code id}: read to its end, then, while the answer
   * has not come, resumed with a GET from its last event after the server's retry time.
   */
  private void answer(InputStream first, @Nullable Object id) {
    Stream stream = new Stream(id);
    InputStream in = first;
    for (int resumes = 0; ; resumes++) {
      read(in, stream);
      if (closing || id == null || stream.answered) return;
      String last = stream.lastId;
      if (last == null || resumes >= MAX_RESUMES) {
        fail(id, "the server closed the stream before it answered");
        return;
      }
      sleep(stream.retry);
      try {
        HttpResponse<InputStream> again = client.send(
            request(endpoint)
                .GET()
                .header("Accept", "text/event-stream")
                .header("Last-Event-ID", last)
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
        if (again.statusCode() != 200) {
          quietlyClose(again.body());
          fail(id, "the server did not resume its stream (HTTP " + again.statusCode() + ")");
          return;
        }
        in = again.body();
      } catch (IOException e) {
        fail(id, "the server could not be reached to resume its stream: " + describe(e));
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** What one stream has said so far: its last event's id, its retry time, whether it answered. */
  private static final class Stream {
    final @Nullable Object id;

    @Nullable
    String lastId;

    Duration retry = DEFAULT_RETRY;
    boolean answered;

    Stream(@Nullable Object id) {
      this.id = id;
    }
  }

  /**
   * Reads server-sent events until the stream ends; answers whether it ended cleanly (rather
   * than broken off, or over the size limit).
   */
  private boolean read(InputStream in, Stream stream) {
    open.add(in);
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (data.length() > 0) {
            String message = data.toString();
            data.setLength(0);
            if (deliver(message) && stream.id != null && answers(message, stream.id)) {
              stream.answered = true;
            }
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
              return false;
            }
          }
          case "id" -> {
            if (!value.contains("\0")) stream.lastId = value;
          }
          case "retry" -> {
            if (value.matches("\\d{1,9}")) {
              Duration asked = Duration.ofMillis(Long.parseLong(value));
              stream.retry = asked.compareTo(MOST_RETRY) > 0 ? MOST_RETRY : asked;
            }
          }
          default -> {}
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    } finally {
      open.remove(in);
    }
  }

  /** Whether this message is the response to request {@code id}. */
  private boolean answers(String message, Object id) {
    try {
      McpSchema.JSONRPCMessage m = McpSchema.deserializeJsonRpcMessage(json, message);
      return m instanceof McpSchema.JSONRPCResponse r && id.equals(r.id());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Hands one message to the client; a line that is not JSON-RPC is dropped. */
  private boolean deliver(String text) {
    var h = handler;
    if (h == null || text.isBlank()) return false;
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(json, text);
    } catch (IOException | RuntimeException e) {
      LOG.fine("an MCP server sent an event that is not JSON-RPC; ignored");
      return false;
    }
    if (message instanceof McpSchema.JSONRPCResponse r
        && r.id() != null
        && r.id().equals(initializeId)
        && r.result() != null) {
      initialized(r.result());
    }
    h.apply(Mono.just(message)).subscribe();
    return true;
  }

  /** After the answer to initialize: the version goes with every request; the server's own stream opens. */
  private void initialized(Object result) {
    try {
      McpSchema.InitializeResult init =
          json.convertValue(result, new TypeRef<McpSchema.InitializeResult>() {});
      version = init.protocolVersion();
    } catch (RuntimeException e) {
      // the client reads the answer itself and says what is wrong with it
    }
    if (!listening) {
      listening = true;
      readers.execute(this::listen);
    }
  }

  /**
   * The server's own stream (notifications it sends unasked), opened again when it ends: after its
   * retry time when it ended cleanly, after a growing pause when it could not be opened, never
   * again when the server does not offer one (405).
   */
  private void listen() {
    Stream stream = new Stream(null);
    Duration pause = DEFAULT_RETRY;
    while (!closing) {
      HttpRequest.Builder b = request(endpoint).GET().header("Accept", "text/event-stream");
      String last = stream.lastId;
      if (last != null) b.header("Last-Event-ID", last);
      try {
        HttpResponse<InputStream> r =
            client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() == 405 || r.statusCode() == 404) {
          quietlyClose(r.body());
          return;
        }
        if (r.statusCode() == 200) {
          pause = DEFAULT_RETRY;
          read(r.body(), stream);
          sleep(stream.retry);
          continue;
        }
        quietlyClose(r.body());
      } catch (IOException e) {
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
    h.apply(Mono.just(new McpSchema.JSONRPCResponse(
            McpSchema.JSONRPC_VERSION,
            id,
            null,
            new McpSchema.JSONRPCResponse.JSONRPCError(LOST, why, null))))
        .subscribe();
  }

  private HttpRequest.Builder request(URI uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri);
    String s = session;
    if (s != null) b.header(SESSION, s);
    String v = version;
    if (v != null) b.header(VERSION, v);
    return b;
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
    String s = session;
    if (s != null) {
      // The server may end the session; it is not waited for.
      client.sendAsync(request(endpoint).DELETE().build(), HttpResponse.BodyHandlers.discarding());
    }
    open.forEach(StreamableHttpTransport::quietlyClose);
    readers.shutdownNow();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }
}
