package dev.steward.mcp.front;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ServiceLink;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.tool.ToolDefinition;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

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

  /** How a transport runs the calls it reads. */
  public enum Calls {
    /** Each call holds the thread it runs on until its answer (Streamable HTTP's requests). */
    BLOCKING,
    /**
     * A call is sent to the service on the thread that read it, which reads on at once; its answer
     * is handed to the transport on the thread it arrives on (stdio: no thread waits for it, so
     * none need be woken).
     */
    ANSWERED_ON_ARRIVAL
  }

  /** A call sent on: what its end must undo. */
  private record Started(
      String callId,
      Link link,
      Execute.Params params,
      @Nullable Object requestId) {}

  private final McpSyncServer server;
  private final ServiceLink lister;
  private final Function<McpSyncServerExchange, Link> links;
  private final Runnable beforeChange;
  private final @Nullable Cancellations cancellations;
  private final Calls calls;
  private final Map<String, ToolDefinition> now = new LinkedHashMap<>();
  /**
   * Whether each tool listed now was listed with an output schema (see {@link McpTools#answer});
   * read by {@link #callRead} without the lock: set before the SDK lists a tool, dropped after.
   */
  private final Map<String, Boolean> outputSchemas = new java.util.concurrent.ConcurrentHashMap<>();
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
      @Nullable Cancellations cancellations,
      Calls calls) {
    this.server = server;
    this.lister = lister;
    this.links = links;
    this.beforeChange = beforeChange;
    this.cancellations = cancellations;
    this.calls = calls;
    for (ToolDefinition t : first) {
      add(t);
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
        outputSchemas.remove(name);
      }
    }
    for (ToolDefinition t : listed) {
      if (!now.containsKey(t.name())) {
        beforeChange.run();
        add(t);
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

  private void add(ToolDefinition definition) {
    McpSchema.Tool tool = McpTools.tool(definition);
    outputSchemas.put(definition.name(), tool.outputSchema() != null);
    if (calls == Calls.BLOCKING) {
      server.addTool(new McpServerFeatures.SyncToolSpecification(tool, this::call));
      return;
    }
    server
        .getAsyncServer()
        .addTool(new McpServerFeatures.AsyncToolSpecification(
            tool, (exchange, request) -> callSent(new McpSyncServerExchange(exchange), request)))
        .block();
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
    Started call;
    try {
      call = begin(exchange, request);
    } catch (RuntimeException e) {
      return unavailable(e);
    }
    return runHere(call);
  }

  /** Sends the call on and leaves its answer to the thread it arrives on (see {@link Calls}). */
  private Mono<McpSchema.CallToolResult> callSent(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Started call;
    try {
      call = begin(exchange, request);
    } catch (RuntimeException e) {
      return Mono.just(unavailable(e));
    }
    ServiceLink service = call.link().service();
    // Waiting for a lost connection to come back would hold the thread that reads the client.
    if (!service.isConnected())
      return Mono.fromCallable(() -> runHere(call)).subscribeOn(Schedulers.boundedElastic());
    CompletableFuture<McpSchema.CallToolResult> answered;
    try {
      answered = service.executeAsync(call.params()).handle((result, error) -> {
        end(call);
        return error == null ? McpTools.result(result) : unavailable(error);
      });
    } catch (RuntimeException e) {
      end(call);
      return Mono.just(unavailable(e));
    }
    return Mono.fromFuture(answered);
  }

  private McpSchema.CallToolResult runHere(Started call) {
    try {
      awaitConnected(call.link().service());
      return McpTools.result(call.link().service().execute(call.params()));
    } catch (RuntimeException e) {
      return unavailable(e);
    } finally {
      end(call);
    }
  }

  /**
   * A {@code tools/call} its transport parsed itself (stdio), sent on as {@link #callSent} sends
   * the SDK's, with no SDK between: answers the whole JSON-RPC answer ({@link McpTools#answer}),
   * made on the thread the service's answer arrives on. Null when the call must go the SDK's way:
   * a tool not listed now (the SDK answers for it), progress asked for (the SDK's exchange carries
   * it), arguments that are no object, no connection to the service (the SDK's way waits for it).
   *
   * @param client the MCP client's name and version as its {@code initialize} said them
   */
  public @Nullable CompletableFuture<String> callRead(
      Link link,
      String sessionId,
      McpSchema.@Nullable Implementation client,
      JsonNode id,
      JsonNode params) {
    String tool = params.path("name").isTextual() ? params.get("name").asText() : null;
    Boolean outputSchema = tool == null ? null : outputSchemas.get(tool);
    JsonNode args = params.get("arguments");
    if (tool == null
        || outputSchema == null
        || params.path("_meta").has("progressToken")
        || (args != null && !args.isNull() && !args.isObject())
        || !link.service().isConnected()) return null;
    Started call;
    try {
      call = start(
          link,
          sessionId,
          client,
          tool,
          args == null || args.isNull() ? Json.object() : args,
          link.scope() + id);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(McpTools.answer(id, unavailableText(e)));
    }
    try {
      return link.service().call(Methods.TOOL_EXECUTE, call.params()).handle((result, error) -> {
        end(call);
        return error == null
            ? McpTools.answer(id, result, outputSchema)
            : McpTools.answer(id, unavailableText(error));
      });
    } catch (RuntimeException e) {
      end(call);
      return CompletableFuture.completedFuture(McpTools.answer(id, unavailableText(e)));
    }
  }

  /**
   * What every call does before it is sent: the client named on its connection, its progress
   * watched, its request id kept for a cancellation, and it known as running.
   */
  private Started begin(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    JsonNode args =
        Json.tree(request.arguments() == null ? Map.<String, Object>of() : request.arguments());
    Link link = links.apply(exchange);
    Object said = request.meta() == null ? null : request.meta().get(Cancellations.KEY);
    Object requestId = said != null && said.toString().startsWith(link.scope()) ? said : null;
    Started call = start(
        link, exchange.sessionId(), exchange.getClientInfo(), request.name(), args, requestId);
    Object token = request.meta() == null ? null : request.meta().get("progressToken");
    if (token != null) Progress.watch(call.callId(), exchange, token);
    return call;
  }

  /** The part of {@link #begin} that needs no SDK exchange (progress does). */
  private Started start(
      Link link,
      String sessionId,
      McpSchema.@Nullable Implementation client,
      String tool,
      JsonNode args,
      @Nullable Object requestId) {
    String callId = CALL_IDS + CALLS.incrementAndGet();
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
    Cancellations cancelling = cancellations;
    // Known as running first: a cancellation that came before it is sent on through its link (the
    // service keeps a cancel that overtakes its call, and stops the call as it begins).
    running.put(callId, link.service());
    if (requestId != null && cancelling != null)
      cancelling.started(link.scope(), requestId, callId);
    return new Started(
        callId,
        link,
        new Execute.Params(
            "mcp/" + sessionId + "/" + callId, callId, tool, args, null, null, link.conversation()),
        requestId);
  }

  private void end(Started call) {
    running.remove(call.callId());
    Progress.done(call.callId());
    Cancellations cancelling = cancellations;
    if (call.requestId() != null && cancelling != null) cancelling.finished(call.requestId());
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

  private static McpSchema.CallToolResult unavailable(Throwable e) {
    return McpSchema.CallToolResult.builder()
        .addTextContent(unavailableText(e))
        .isError(true)
        .build();
  }

  private static String unavailableText(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    return "UNAVAILABLE: the Steward service did not answer: " + cause.getMessage();
  }

  /** The service's {@code tool.progress}, to the client that asked for progress on that call. */
  public static void progress(@Nullable JsonNode params) {
    Progress.forward(params);
  }
}
