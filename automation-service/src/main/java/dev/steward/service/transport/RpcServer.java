package dev.steward.service.transport;

import dev.steward.protocol.client.ServiceProof;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.MessageCodec;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.method.ToolResults;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import dev.steward.service.tools.BrowserReturns;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.ServerWebSocketContainer;

/**
 * The WebSocket endpoint at {@code ws://127.0.0.1:<port>/rpc} (and {@code [::1]}), and MCP's
 * Streamable HTTP at {@code /mcp} behind the same checks ({@link McpHttp}). Every request
 * passes the {@link HandshakeGuard} before an upgrade is even attempted; anything else that is not a
 * WebSocket upgrade is answered 426 and reaches no method.
 */
public final class RpcServer implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(RpcServer.class.getName());

  private final Server server;
  private final ExecutorService workers;
  private final Set<Connection> uiConnections = ConcurrentHashMap.newKeySet();
  /** The MCP bridges: told when the tools change, to tell their own clients. */
  private final Set<Connection> mcpConnections = ConcurrentHashMap.newKeySet();

  private final Holders holders;
  private final int port;
  private final McpHttp mcp;

  private RpcServer(
      Server server, ExecutorService workers, int port, Holders holders, McpHttp mcp) {
    this.mcp = mcp;
    this.server = server;
    this.workers = workers;
    this.port = port;
    this.holders = holders;
  }

  /**
   * Starts listening. The dispatcher may come later — the service binds its port while it builds
   * the gate — and until it has come, a handshake is answered 503; the port is only published
   * (run/service.json) once it has.
   */
  public static RpcServer start(
      int requestedPort,
      HandshakeGuard guard,
      CompletableFuture<Dispatcher> dispatcher,
      Limits limits,
      BrowserReturns returns)
      throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(32, 4);
    threads.setName("rpc-io");
    threads.setDaemon(true);
    Server server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setRequestHeaderSize(16 * 1024);
    ServerConnector v4 = new ServerConnector(server, new HttpConnectionFactory(http));
    v4.setHost("127.0.0.1");
    v4.setPort(requestedPort);
    v4.setAcceptedTcpNoDelay(true); // small JSON-RPC frames: never wait for Nagle
    server.addConnector(v4);
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("rpc-worker"));
    ServerWebSocketContainer container = ServerWebSocketContainer.ensure(server);
    container.setMaxTextMessageSize(limits.maxFrameBytes());
    container.setMaxBinaryMessageSize(1024);
    container.setMaxFrameSize(limits.maxFrameBytes());
    container.setIdleTimeout(Duration.ofHours(24));
    RpcServer[] self = new RpcServer[1];
    Holders holders = new Holders(limits);
    McpHttp mcp = new McpHttp(
        (int) Math.min(Integer.MAX_VALUE, limits.maxFrameBytes()),
        holders.rate(Role.MCP),
        limits.maxMessagesPerSecondPerRole(),
        id -> self[0].onClosed.accept(id));
    Handler checks = new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        if (ServiceProof.PATH.equals(Request.getPathInContext(request))) {
          hello(guard, request, response, callback);
          return true;
        }
        if (BrowserReturns.ours(Request.getPathInContext(request))) {
          cameBack(guard, returns, request, response, callback);
          return true;
        }
        HandshakeGuard.Verdict v = guard.check(
            Request.getPathInContext(request),
            request.getHeaders().get(HttpHeader.HOST),
            request.getHeaders().get(HttpHeader.ORIGIN),
            request.getHeaders().get(HttpHeader.AUTHORIZATION));
        if (v.role().isEmpty()) {
          Response.writeError(request, response, callback, v.status(), v.reason());
          return true;
        }
        Dispatcher ready = dispatcher.getNow(null);
        if (ready == null) {
          Response.writeError(request, response, callback, 503, "the service is starting");
          return true;
        }
        if (McpHttp.PATH.equals(Request.getPathInContext(request))) {
          if (mcp.ready()) return false; // on to the MCP servlet
          Response.writeError(request, response, callback, 503, "MCP is not ready yet");
          return true;
        }
        Role role = v.role().get();
        if (!holders.admit(role)) {
          Response.writeError(
              request,
              response,
              callback,
              429,
              "more than " + limits.maxConnectionsPerRole() + " connections with the " + role.wire()
                  + " secret; close some first");
          return true;
        }
        boolean upgraded = container.upgrade(
            (upgradeRequest, upgradeResponse, cb) -> {
              Connection c =
                  new Connection(role, ready, workers, limits, holders.rate(role), self[0]::closed);
              if (role == Role.UI) self[0].uiConnections.add(c);
              if (role == Role.MCP) self[0].mcpConnections.add(c);
              return c;
            },
            request,
            response,
            callback);
        if (!upgraded) {
          holders.left(role);
          Response.writeError(
              request, response, callback, 426, "this endpoint speaks WebSocket only");
        }
        return true;
      }
    };
    server.setHandler(new Handler.Sequence(checks, mcp.handler()));
    server.addBean(container);
    server.start();
    int port = v4.getLocalPort();
    guard.bindPort(port);
    returns.bindPort(port);
    dispatcher.thenAccept(d -> mcp.serve(port, guard.secret(Role.MCP), d));
    try {
      ServerConnector v6 = new ServerConnector(server, new HttpConnectionFactory(http));
      v6.setHost("::1");
      v6.setPort(port);
      v6.setAcceptedTcpNoDelay(true);
      server.addConnector(v6);
      v6.start();
    } catch (Exception e) {
      if (requestedPort != 0 && hasIpv6Loopback()) {
        // A client told "localhost:<port>" tries ::1 first, and would give the program there the
        // mcp secret in its Authorization header: a port the user fixed is Steward's on both.
        server.stop();
        throw new java.io.IOException("another program listens on [::1]:" + port
            + ", the port Steward is set to (STEWARD_PORT or --port): stop it or choose another"
            + " port");
      }
      LOG.log(Level.FINE, "no IPv6 loopback, or its port is taken: serving on 127.0.0.1 only", e);
    }
    RpcServer rpc = new RpcServer(server, workers, port, holders, mcp);
    self[0] = rpc;
    return rpc;
  }

  public int port() {
    return port;
  }

  /**
   * Whether this machine has an IPv6 loopback (any port of it can be bound): then a port of it that
   * cannot be bound is another program's. Asked of the machine, not read from the error's words,
   * which follow the system's language.
   */
  private static boolean hasIpv6Loopback() {
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName("::1"), 0));
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** The Streamable HTTP sessions whose conversation is kept. */
  public int mcpSessions() {
    return mcp.sessions();
  }

  /** Sends a finished call to every ui connection (SPEC §3: {@code tool.results}). */
  public void publish(ToolResults results) {
    if (uiConnections.isEmpty()) return;
    // After the caller's answer: the window refreshes its audit panel from it, in no hurry.
    AfterAnswer.later(() -> {
      ByteBuffer utf8 =
          MessageCodec.writeUtf8(new Notification(Methods.TOOL_RESULTS, Json.pojo(results)));
      uiConnections.forEach(
          c -> c.send(utf8.duplicate())); // a view each: sending moves a buffer's position
    });
  }

  /** Sends a notification to every ui connection; false when no window is connected. */
  public boolean toWindow(Notification notification) {
    if (uiConnections.isEmpty()) return false;
    ByteBuffer utf8 = MessageCodec.writeUtf8(notification);
    uiConnections.forEach(c -> c.send(utf8.duplicate()));
    return true;
  }

  /** Sends a notification to the window and to every MCP bridge (the tools on offer changed). */
  public void toWindowAndBridges(Notification notification) {
    ByteBuffer utf8 = MessageCodec.writeUtf8(notification);
    uiConnections.forEach(c -> c.send(utf8.duplicate()));
    mcpConnections.forEach(c -> c.send(utf8.duplicate()));
  }

  private volatile java.util.function.Consumer<String> onClosed = id -> {};

  /** Told the id of each connection that closes (what it left waiting is answered). */
  public void onConnectionClosed(java.util.function.Consumer<String> listener) {
    this.onClosed = listener;
  }

  void closed(Connection c) {
    uiConnections.remove(c);
    mcpConnections.remove(c);
    holders.left(c.role());
    onClosed.accept(c.id());
  }

  private static void hello(
      HandshakeGuard guard, Request request, Response response, Callback callback) {
    String nonce = org.eclipse.jetty.util.UrlEncoded.decodeQuery(
            request.getHttpURI().getQuery() == null ? "" : request.getHttpURI().getQuery())
        .getValue("nonce");
    HandshakeGuard.Verdict v = guard.hello(
        request.getHeaders().get(HttpHeader.HOST),
        request.getHeaders().get(HttpHeader.ORIGIN),
        nonce);
    if (v.status() != 200) {
      Response.writeError(request, response, callback, v.status(), v.reason());
      return;
    }
    com.fasterxml.jackson.databind.node.ObjectNode body = Json.object();
    guard.proofs(nonce).forEach(body.putArray("proofs")::add);
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(
        true,
        ByteBuffer.wrap(body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        callback);
  }

  /**
   * A browser sent back after a sign-in: a page, in Steward's words, of what came of it. Only a
   * GET to this service's own loopback Host is taken (a rebound name is refused as everywhere);
   * a parameter given twice is refused rather than one of them picked.
   */
  private static void cameBack(
      HandshakeGuard guard,
      BrowserReturns returns,
      Request request,
      Response response,
      Callback callback) {
    if (!"GET".equals(request.getMethod())) {
      Response.writeError(request, response, callback, 405, "GET only");
      return;
    }
    if (!guard.ownHost(request.getHeaders().get(HttpHeader.HOST))) {
      Response.writeError(
          request, response, callback, 403, "Host must be the loopback address of this service");
      return;
    }
    String raw = request.getHttpURI().getQuery();
    org.eclipse.jetty.util.MultiMap<String> fields =
        org.eclipse.jetty.util.UrlEncoded.decodeQuery(raw == null ? "" : raw);
    java.util.Map<String, String> query = new java.util.HashMap<>();
    boolean twice = false;
    for (var f : fields.entrySet()) {
      if (f.getValue().size() != 1) twice = true;
      else query.put(f.getKey(), f.getValue().get(0));
    }
    BrowserReturns.Page page = twice
        ? new BrowserReturns.Page(
            400, "Not signed in", "The sign-in came back with a parameter given twice.")
        : returns.arrive(Request.getPathInContext(request), query);
    String html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>"
        + escape(page.title()) + " — Steward</title><style>body{font:16px system-ui,sans-serif;"
        + "max-width:36em;margin:4em auto;padding:0 1em;color:#222}</style></head><body><h1>"
        + escape(page.title()) + "</h1><p>" + escape(page.message()) + "</p></body></html>";
    response.setStatus(page.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("Referrer-Policy", "no-referrer");
    response
        .getHeaders()
        .put("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    response.getHeaders().put("X-Frame-Options", "DENY");
    response.write(
        true, ByteBuffer.wrap(html.getBytes(java.nio.charset.StandardCharsets.UTF_8)), callback);
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  @Override
  public void close() {
    mcp.close();
    try {
      server.stop();
    } catch (Exception e) {
      LOG.log(Level.WARNING, "stopping the server", e);
    }
    workers.shutdownNow();
  }
}
