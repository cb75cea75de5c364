package dev.steward.mcp.front;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ServiceLink;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.WeakHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Steward's tools as one MCP server's tools, whatever carries MCP (stdio's one session, Streamable
 * HTTP's many): each call a {@code tool.execute} on the service as the {@code mcp} role, over the
 * connection and under the conversation its session's {@link Link} names; the tools kept as the
 * service lists them. Nothing an MCP client sends can mint a token: a call the rules want confirmed
 * is refused until the user approves it in the window.
 */
public final class McpFront {

  /** The version Steward's MCP server gives in {@code initialize}. */
  public static final String VERSION = "0.1.0";

  /**
   * The connection a session's calls go through, the conversation its taint is kept under, and
   * the scope its request ids carry ({@link Cancellations#message}): an id of another scope in a
   * call's {@code _meta} is the client's own invention, and is ignored.
   */
  public record Link(ServiceLink service, String conversation, String scope) {}

  private final McpSyncServer server;
  private final ServiceLink lister;
  private final Function<McpSyncServerExchange, Link> links;
  private final Runnable beforeChange;
  private final @Nullable Cancellations cancellations;
  private final Map<String, ToolDefinition> now = new LinkedHashMap<>();
  /** The calls running now, by call id: the connection each went through (to cancel it there). */
  private final Map<String, ServiceLink> running = new java.util.concurrent.ConcurrentHashMap<>();
  /** The MCP client's name said on each connection (dialogs and rows: "<client> asks to…"). */
  private final Map<ServiceLink, String> named = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * @param lister the connection that lists the tools (again, when they change)
   * @param beforeChange runs before each tool the server adds or removes (it notifies clients)
   * @param cancellations where the request ids of calls are kept, when the transport sees MCP's
   *     cancellations itself (stdio); null when it cannot
   */
  public McpFront(
      McpSyncServer server,
      ServiceLink lister,
      List<ToolDefinition> first,
      Function<McpSyncServerExchange, Link> links,
      Runnable beforeChange,
      @Nullable Cancellations cancellations) {
    this.server = server;
    this.lister = lister;
    this.links = links;
    this.beforeChange = beforeChange;
    this.cancellations = cancellations;
    for (ToolDefinition t : first) {
      server.addTool(specification(t));
      now.put(t.name(), t);
    }
  }

  /**
   * Lists the service's tools again: a tool that came is added, one that went is removed, one whose
   * definition changed is replaced; the SDK tells the clients ({@code
   * notifications/tools/list_changed}).
   */
  public synchronized void relist() {
    List<ToolDefinition> listed;
    try {
      listed =
          lister.call(Methods.TOOLS_LIST, Json.object(), ToolsList.Result.class).tools();
    } catch (RuntimeException e) {
      return; // the next change lists them again
    }
    Map<String, ToolDefinition> next = new LinkedHashMap<>();
    for (ToolDefinition t : listed) next.put(t.name(), t);
    for (String name : List.copyOf(now.keySet())) {
      if (!next.containsKey(name) || !next.get(name).equals(now.get(name))) {
        beforeChange.run();
        server.removeTool(name);
        now.remove(name);
      }
    }
    for (ToolDefinition t : listed) {
      if (!now.containsKey(t.name())) {
        beforeChange.run();
        server.addTool(specification(t));
        now.put(t.name(), t);
      }
    }
  }

  /** Cancels a running call in the service, through the connection it went by. */
  public void cancel(String callId) {
    ServiceLink service = running.get(callId);
    if (service == null) return;
    try {
      service.call(Methods.TOOL_CANCEL, new Execute.CancelParams(callId));
    } catch (RuntimeException e) {
      // it ended meanwhile, or the service went: either way it runs no more
    }
  }

  /** Says the MCP client's name on a connection again (a reconnection is a new connection). */
  public void helloAgain(ServiceLink service) {
    String name = named.get(service);
    if (name != null) hello(service, name);
  }

  private McpServerFeatures.SyncToolSpecification specification(ToolDefinition definition) {
    return new McpServerFeatures.SyncToolSpecification(McpTools.tool(definition), this::call);
  }

  /**
   * Tells the service the client's name as a notification: the service reads a connection's
   * messages in turn and handles a {@code session.hello} before it reads the next, so the call sent
   * after it is already named (dialogs, audit rows), with no round trip to wait for. Said again on
   * each reconnection.
   */
  private static void hello(ServiceLink service, String name) {
    service.notify(Methods.SESSION_HELLO, new Hello.Params(name, VERSION));
  }

  private McpSchema.CallToolResult call(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    JsonNode args =
        Json.tree(request.arguments() == null ? Map.<String, Object>of() : request.arguments());
    String callId = CALL_IDS + CALLS.incrementAndGet();
    Link link;
    try {
      link = links.apply(exchange);
    } catch (RuntimeException e) {
      return unavailable(e);
    }
    McpSchema.Implementation client = exchange.getClientInfo();
    if (client != null) {
      String name = client.name() + (client.version() == null ? "" : " " + client.version());
      if (!name.equals(named.get(link.service()))) {
        try {
          hello(link.service(), name);
          named.put(link.service(), name);
        } catch (RuntimeException e) {
          // not said now (the service refused it: its rate): said with the next call
        }
      }
    }
    Object token = request.meta() == null ? null : request.meta().get("progressToken");
    if (token != null) Progress.watch(callId, exchange, token);
    Object said = request.meta() == null ? null : request.meta().get(Cancellations.KEY);
    Object requestId = said != null && said.toString().startsWith(link.scope()) ? said : null;
    Cancellations cancelling = cancellations;
    // Known as running first: a cancellation that came before it is sent on through its link (the
    // service keeps a cancel that overtakes its call, and stops the call as it begins).
    running.put(callId, link.service());
    if (requestId != null && cancelling != null)
      cancelling.started(link.scope(), requestId, callId);
    try {
      awaitConnected(link.service());
      ToolResult result = link.service()
          .execute(new Execute.Params(
              "mcp/" + exchange.sessionId() + "/" + callId,
              callId,
              request.name(),
              args,
              null,
              null,
              link.conversation()));
      return McpTools.result(result);
    } catch (RuntimeException e) {
      return unavailable(e);
    } finally {
      running.remove(callId);
      Progress.done(callId);
      if (requestId != null && cancelling != null) cancelling.finished(requestId);
    }
  }

  /**
   * Call ids: unique to this process and not to be guessed by another (a random part drawn once),
   * without a secure random draw for each call.
   */
  private static final String CALL_IDS = "mcp-" + UUID.randomUUID() + "-";

  private static final java.util.concurrent.atomic.AtomicLong CALLS =
      new java.util.concurrent.atomic.AtomicLong();

  /** How long a call waits for a lost connection to the service to come back before it is sent. */
  static final java.time.Duration RECONNECT_WAIT = java.time.Duration.ofSeconds(15);

  /**
   * Waits while the connection to the service is being made again (the service restarting): a
   * call that was never sent can wait for it, and nothing runs twice. Returns either way; a call
   * still unconnected then fails as unavailable.
   */
  private static void awaitConnected(ServiceLink service) {
    long deadline = System.nanoTime() + RECONNECT_WAIT.toNanos();
    while (!service.isConnected() && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static McpSchema.CallToolResult unavailable(RuntimeException e) {
    return McpSchema.CallToolResult.builder()
        .addTextContent("UNAVAILABLE: the Steward service did not answer: " + e.getMessage())
        .isError(true)
        .build();
  }

  /** The service's {@code tool.progress}, to the client that asked for progress on that call. */
  public static void progress(@Nullable JsonNode params) {
    Progress.forward(params);
  }
}
