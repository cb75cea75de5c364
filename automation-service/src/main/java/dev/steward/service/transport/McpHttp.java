package dev.steward.service.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.mcp.front.Cancellations;
import dev.steward.mcp.front.McpFront;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.rpc.Dispatcher;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.jspecify.annotations.Nullable;

/**
 * MCP over Streamable HTTP at {@code /mcp} on the service's own port (SPEC §12), for clients that
 * connect rather than launch {@code steward mcp}. The WebSocket's checks come first (loopback Host,
 * no other page's Origin, the {@code mcp} role's secret as a Bearer token); then the MCP SDK's servlet
 * transport speaks the protocol. Each MCP session is a session of the {@code mcp} role on the
 * service's own dispatcher ({@link OwnSession}), called in-process: the same methods,
 * gate, dialog, taint (kept per MCP session) and audit log as the stdio bridge's connection.
 */
final class McpHttp implements AutoCloseable {

  static final String PATH = "/mcp";

  /**
   * The SDK's JSON for this endpoint: nested no deeper than the WebSocket lets a message be, so
   * what reaches the gate here could have reached it there (and no argument is deep enough to
   * overflow a thread's stack while it is copied).
   */
  private static final io.modelcontextprotocol.json.McpJsonMapper BOUNDED =
      new io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper(
          new com.fasterxml.jackson.databind.ObjectMapper(
              com.fasterxml.jackson.core.JsonFactory.builder()
                  .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                      .maxNestingDepth(Json.MAX_NESTING_DEPTH)
                      .build())
                  .build()));

  /** Requests being answered at once (of the 32 threads the service's port has). */
  private static final int IN_FLIGHT = 12;

  /**
   * New sessions a second, all clients together: a client starts one and keeps it, and each
   * lives until it is ended or has lain idle without a stream for one to two sweeps.
   */
  private static final int NEW_SESSIONS_PER_SECOND = 20;

  private static final Duration SWEEP = Duration.ofMinutes(10);

  /** A session's conversation is forgotten after this long without a call. */
  private static final long IDLE_NANOS = TimeUnit.HOURS.toNanos(1);

  private final RateLimiter newSessions = new RateLimiter(NEW_SESSIONS_PER_SECOND);
  /** Per MCP session id: when it last made a call. */
  private final Map<String, Long> lastCall = new java.util.concurrent.ConcurrentHashMap<>();

  private final ServletContextHandler context = new ServletContextHandler("/");
  /**
   * The SDK's server, made once the service answers (off the path to the service's readiness);
   * a failed attempt is made again at the next request.
   */
  private volatile CompletableFuture<Made> made = new CompletableFuture<>();

  /**
   * Requests at once: a {@code tools/call} holds a Jetty thread until it ends (the SDK's servlet
   * blocks), and those threads also carry the WebSocket that calls and approvals travel on.
   */
  private final java.util.concurrent.Semaphore inFlight =
      new java.util.concurrent.Semaphore(IN_FLIGHT);

  private final int maxBody;
  private final RateLimiter rate;
  /** Told the id of each session that ends, as the service is of each connection that closes. */
  private final java.util.function.Consumer<String> closed;

  private final int perSecond;
  /** Per MCP session id: its session on the service's dispatcher, until the session ends. */
  private final Map<String, OwnSession> links = new java.util.concurrent.ConcurrentHashMap<>();
  /** Per MCP session id: the conversation its taint is kept under, until the session ends. */
  private final Map<String, String> conversations = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The sessions their clients ended, the newest 1,024: a call that raced the DELETE is refused
   * rather than given a conversation (and a connection) that nothing would ever remove.
   */
  private final java.util.Set<String> endedSessions = java.util.Collections.newSetFromMap(
      java.util.Collections.synchronizedMap(new LinkedHashMap<String, Boolean>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > 1024;
        }
      }));

  private volatile @Nullable Endpoint endpoint;
  private volatile @Nullable Dispatcher dispatcher;

  private record Made(
      HttpServletStreamableServerTransportProvider transport,
      McpSyncServer server,
      McpFront front) {}

  /** MCP's cancellations, read on the way in: the SDK does not surface them. */
  private final Cancellations cancellations =
      new Cancellations(callId -> made.join().front().cancel(callId));

  /**
   * @param maxBody the largest message, as for the WebSocket
   * @param rate the messages a second the mcp role's connections share, and its sessions here
   * @param closed told the id of each session that ends
   */
  McpHttp(
      int maxBody, RateLimiter rate, int perSecond, java.util.function.Consumer<String> closed) {
    this.maxBody = maxBody;
    this.closed = closed;
    this.rate = rate;
    this.perSecond = perSecond;
    context.addFilter(
        new FilterHolder(new CancellationReader()),
        PATH,
        java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    ServletHolder holder = new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest request, HttpServletResponse response)
          throws ServletException, IOException {
        Refusals answer = new Refusals(response);
        made.join().transport().service(request, answer);
        answer.finish();
      }
    });
    holder.setAsyncSupported(true);
    context.addServlet(holder, PATH);
  }

  /** The servlet context the server runs after the WebSocket's checks have let a request by. */
  ServletContextHandler handler() {
    return context;
  }

  /** Once the service answers: makes the MCP server, with the tools a connection of the mcp role lists. */
  void serve(int port, String mcpSecret, Dispatcher dispatcher) {
    this.dispatcher = dispatcher;
    endpoint = Endpoint.loopback(port, mcpSecret);
    make(made);
  }

  private void make(CompletableFuture<Made> attempt) {
    Endpoint e = java.util.Objects.requireNonNull(endpoint, "served");
    DaemonThreads.start("steward-mcp-http", () -> {
      try {
        HttpServletStreamableServerTransportProvider transport =
            HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(BOUNDED)
                .mcpEndpoint(PATH)
                .keepAliveInterval(Duration.ofSeconds(30))
                .sessionSweepInterval(SWEEP)
                .maxRequestSize(maxBody)
                .build();
        McpSyncServer server = McpServer.sync(transport)
            .serverInfo("steward", McpFront.VERSION)
            .instructions("Steward's desktop tools. Every call passes Steward's gate: scopes, the"
                + " user's approval in the Steward window where the rules ask for it, and an"
                + " audit log the user reviews.")
            .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
            // The gate checks arguments itself, and audits a call it refuses.
            .validateToolInputs(false)
            .build();
        StewardClient lister = connect(e, "steward-mcp-http");
        McpFront front = new McpFront(
            server,
            lister,
            lister
                .call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class)
                .tools(),
            exchange -> {
              long now = System.nanoTime();
              boolean[] fresh = {false};
              String conversation = conversations.compute(exchange.sessionId(), (id, was) -> {
                if (endedSessions.contains(id))
                  throw new IllegalStateException("the MCP session has ended");
                fresh[0] = was == null;
                return was != null ? was : "mcp-http-" + UUID.randomUUID();
              });
              lastCall.put(exchange.sessionId(), now);
              if (fresh[0]) forgetIdle(now);
              return new McpFront.Link(
                  link(exchange.sessionId()), conversation, exchange.sessionId() + "/");
            },
            () -> {},
            cancellations,
            McpFront.Calls.BLOCKING);
        lister.onNotification(n -> {
          if (Methods.TOOLS_CHANGED.equals(n.method()))
            DaemonThreads.start("steward-mcp-http-relist", front::relist);
        });
        attempt.complete(new Made(transport, server, front));
      } catch (Throwable failure) {
        attempt.completeExceptionally(failure);
      }
    });
  }

  /**
   * Reads each POST's body before the SDK does: a {@code tools/call} gets its request id (scoped
   * by the MCP session) in its {@code _meta}, and a {@code notifications/cancelled} cancels that
   * call in the service ({@link Cancellations}).
   */
  private final class CancellationReader extends HttpFilter {
    @Override
    protected void doFilter(
        HttpServletRequest request, HttpServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      // Taken before a body is read: a client that trickles its bodies holds at most this many of
      // the port's threads, and the window's connection keeps the rest.
      if (!inFlight.tryAcquire()) {
        // Closed after the answer: its body is not waited for on one of the port's threads.
        response.setHeader("Connection", "close");
        response.sendError(
            429, "more than " + IN_FLIGHT + " MCP requests at once; wait for some to end");
        return;
      }
      try {
        admitted(request, response, chain);
      } finally {
        inFlight.release();
      }
    }

    private void admitted(
        HttpServletRequest request, HttpServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      if ("DELETE".equals(request.getMethod())) {
        chain.doFilter(request, response);
        String session = request.getHeader("Mcp-Session-Id");
        // Only a session the SDK knew and has now ended: an unknown id is answered 404.
        if (session != null && response.getStatus() / 100 == 2) ended(session);
        return;
      }
      if (!"POST".equals(request.getMethod())) {
        chain.doFilter(request, response);
        return;
      }
      if (request.getContentLengthLong() > maxBody) {
        response.sendError(413, "an MCP message is at most " + maxBody + " bytes");
        return;
      }
      byte[] body = request.getInputStream().readNBytes(maxBody + 1);
      if (body.length > maxBody) {
        response.sendError(413, "an MCP message is at most " + maxBody + " bytes");
        return;
      }
      String session = request.getHeader("Mcp-Session-Id");
      // Read as the SDK reads it: from this text, bytes that are not UTF-8 replaced.
      String text = new String(body, StandardCharsets.UTF_8);
      // The SDK starts a session for an initialize whatever session header it carries.
      if ((session == null || opensSession(text)) && !newSessions.tryAcquire(1)) {
        response.sendError(
            429,
            "more than " + NEW_SESSIONS_PER_SECOND
                + " new MCP sessions a second; a client starts one and keeps it");
        return;
      }
      String read = cancellations.message(text, (session == null ? "" : session) + "/");
      chain.doFilter(new Body(request, read.getBytes(StandardCharsets.UTF_8)), response);
    }
  }

  private static final com.fasterxml.jackson.core.JsonFactory JSON =
      new com.fasterxml.jackson.core.JsonFactory();

  /**
   * Whether a body may ask for a new session: an {@code initialize}, alone or in a batch, its
   * method read as JSON reads it (escapes and all), or a body this cannot read to its end (the
   * SDK's reader may read it otherwise). The top level is read; what lies below is skipped.
   */
  static boolean opensSession(String body) {
    try (com.fasterxml.jackson.core.JsonParser in = JSON.createParser(body)) {
      com.fasterxml.jackson.core.JsonToken first = in.nextToken();
      if (first == com.fasterxml.jackson.core.JsonToken.START_OBJECT) return initializes(in);
      if (first != com.fasterxml.jackson.core.JsonToken.START_ARRAY) return false;
      for (com.fasterxml.jackson.core.JsonToken t = in.nextToken();
          t != null && t != com.fasterxml.jackson.core.JsonToken.END_ARRAY;
          t = in.nextToken()) {
        if (t == com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
          if (initializes(in)) return true;
        } else {
          in.skipChildren(); // an array inside; a value is skipped by reading on
        }
      }
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /** Reads one object's fields, from after its start: whether its method is initialize. */
  private static boolean initializes(com.fasterxml.jackson.core.JsonParser in) throws IOException {
    boolean initializes = false;
    while (in.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
      String field = in.currentName();
      com.fasterxml.jackson.core.JsonToken value = in.nextToken();
      if ("method".equals(field)
          && value == com.fasterxml.jackson.core.JsonToken.VALUE_STRING
          && McpSchema.METHOD_INITIALIZE.equals(in.getText())) initializes = true;
      in.skipChildren();
    }
    return initializes;
  }

  /**
   * The SDK's transport writes a refusal (a body that is not JSON-RPC, an unknown session) as the
   * Java exception it made, stack and all; the client gets a JSON-RPC error instead, with the
   * same status, code and the message's first line.
   */
  private static final class Refusals extends jakarta.servlet.http.HttpServletResponseWrapper {
    private java.io.@Nullable StringWriter held;

    Refusals(HttpServletResponse response) {
      super(response);
    }

    @Override
    public java.io.PrintWriter getWriter() throws IOException {
      if (getStatus() < 400) return super.getWriter();
      java.io.StringWriter h = held;
      if (h == null) held = h = new java.io.StringWriter();
      return new java.io.PrintWriter(h);
    }

    void finish() throws IOException {
      java.io.StringWriter h = held;
      if (h == null) return;
      JsonNode said;
      try {
        said = Json.parse(h.toString()).path("jsonRpcError");
      } catch (IOException e) {
        said = Json.object();
      }
      String message = said.path("message").asText("");
      if (message.isBlank()) message = "the request was refused (HTTP " + getStatus() + ")";
      ObjectNode answer = Json.object().put("jsonrpc", "2.0").putNull("id");
      answer
          .putObject("error")
          .put(
              "code",
              said.path("code").canConvertToInt()
                  ? said.path("code").intValue()
                  : ErrorCodes.INVALID_REQUEST)
          .put("message", message.lines().findFirst().orElse(message).strip());
      byte[] bytes = answer.toString().getBytes(StandardCharsets.UTF_8);
      setContentType("application/json");
      setContentLength(bytes.length);
      getOutputStream().write(bytes);
    }
  }

  /** A request whose body is the one given. */
  private static final class Body extends HttpServletRequestWrapper {
    private final byte[] body;

    Body(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      java.io.ByteArrayInputStream in = new java.io.ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(jakarta.servlet.ReadListener listener) {
          throw new IllegalStateException("the body is read already");
        }
      };
    }

    @Override
    public java.io.BufferedReader getReader() {
      return new java.io.BufferedReader(new java.io.InputStreamReader(
          new java.io.ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }
  }

  /** Whether the endpoint is ready for a request, after waiting up to a few seconds at start. */
  boolean ready() {
    CompletableFuture<Made> now;
    synchronized (this) {
      if (made.isCompletedExceptionally() && endpoint != null) {
        made = new CompletableFuture<>();
        make(made);
      }
      now = made;
    }
    try {
      now.get(5, TimeUnit.SECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Sessions without a call for an hour: their conversation and their session on the dispatcher
   * go, as the SDK forgets those that keep no stream. A call that comes later starts a new
   * conversation (an MCP client's is counted as tainted from its first call either way).
   */
  private void forgetIdle(long now) {
    for (Map.Entry<String, Long> e : lastCall.entrySet()) {
      if (now - e.getValue() > IDLE_NANOS && lastCall.remove(e.getKey(), e.getValue()))
        forget(e.getKey());
    }
  }

  /** A client ended its session: its conversation and its session on the dispatcher go. */
  private void ended(String session) {
    endedSessions.add(session);
    lastCall.remove(session);
    forget(session);
  }

  private void forget(String session) {
    conversations.remove(session);
    OwnSession own = links.remove(session);
    if (own != null) {
      own.end();
      closed.accept(own.id()); // an approval it left waiting is answered
    }
  }

  /** MCP sessions whose conversation is kept (for tests and diagnostics). */
  int sessions() {
    return conversations.size();
  }

  private OwnSession link(String session) {
    Dispatcher d = java.util.Objects.requireNonNull(dispatcher, "served");
    OwnSession own = links.computeIfAbsent(session, id -> new OwnSession(d, rate, perSecond));
    if (endedSessions.contains(session)) {
      links.remove(session);
      throw new IllegalStateException("the MCP session has ended");
    }
    return own;
  }

  private static StewardClient connect(Endpoint e, String name) {
    return StewardClient.connect(
        () -> e,
        StewardClient.Options.defaults()
            .withClientName(name)
            .withReconnect(true)
            .withCallTimeout(Duration.ofMinutes(5)));
  }

  @Override
  public void close() {
    made.thenAccept(m -> m.server().close());
    links.clear();
  }
}
