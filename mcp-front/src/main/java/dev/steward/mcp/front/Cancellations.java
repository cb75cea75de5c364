package dev.steward.mcp.front;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.util.EarlyCancels;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * MCP's {@code notifications/cancelled} for a running {@code tools/call}, turned into the
 * service's {@code tool.cancel}. The SDK's server does not surface the notification nor a call's
 * request id, so the bridge reads both on the way in: each {@code tools/call} gets its request id
 * in its {@code _meta} (under {@link #KEY}), which the call's handler registers with its own call
 * id; a cancellation names the request id and is sent on as the call id's cancel. Read as text
 * ({@link #message(String, String)}) on its way to a transport that parses it, or once parsed
 * ({@link #message(McpSchema.JSONRPCMessage)}), with request ids keyed alike: their JSON.
 */
public final class Cancellations {

  public static final String KEY = "dev.steward/request_id";

  private static final String CANCELLED = "notifications/cancelled";

  private final Consumer<String> cancel;
  private final Map<String, String> callByRequest = new ConcurrentHashMap<>();
  /**
   * Cancellations of requests whose handler has not registered yet: a minute, 32 a session (so
   * that one session's flood displaces only its own), 4,096 in all.
   */
  private final EarlyCancels early = new EarlyCancels(32, 4096, java.time.Duration.ofMinutes(1));

  public Cancellations(Consumer<String> cancel) {
    this.cancel = cancel;
  }

  /**
   * Reads one message the transport has parsed on its way to the SDK (one client's: no scope);
   * returns it, or a {@code tools/call} with its request id added.
   */
  public McpSchema.JSONRPCMessage message(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request
        && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
        && request.id() != null
        && request.params() instanceof Map<?, ?> params) {
      Map<String, Object> with = new LinkedHashMap<>();
      params.forEach((k, v) -> with.put(String.valueOf(k), v));
      Map<String, Object> meta = new LinkedHashMap<>();
      if (params.get("_meta") instanceof Map<?, ?> said)
        said.forEach((k, v) -> meta.put(String.valueOf(k), v));
      meta.put(KEY, Json.write(request.id()));
      with.put("_meta", meta);
      return new McpSchema.JSONRPCRequest(request.jsonrpc(), request.method(), request.id(), with);
    }
    if (message instanceof McpSchema.JSONRPCNotification note
        && CANCELLED.equals(note.method())
        && note.params() instanceof Map<?, ?> params
        && params.get("requestId") != null) cancelled("", Json.write(params.get("requestId")));
    return message;
  }

  /**
   * Reads one message from a client on its way to the SDK; returns it, or it rewritten. {@code
   * scope} keeps apart the request ids of clients that share this object (each numbers its own
   * requests): Streamable HTTP's sessions.
   */
  public String message(String line, String scope) {
    boolean call = line.contains("tools/call");
    boolean cancelled = line.contains(CANCELLED);
    if (!call && !cancelled) return line;
    JsonNode msg;
    try {
      msg = Json.parse(line);
    } catch (IOException | RuntimeException e) {
      return line; // the SDK answers what it cannot parse
    }
    String method = msg.path("method").asText("");
    if (method.equals("tools/call")
        && msg.hasNonNull("id")
        && msg.path("params").isObject()) {
      ObjectNode params = (ObjectNode) msg.get("params");
      JsonNode meta = params.get("_meta");
      ObjectNode m =
          meta != null && meta.isObject() ? (ObjectNode) meta : params.putObject("_meta");
      m.put(KEY, scope + msg.get("id").toString());
      return msg.toString();
    }
    if (method.equals(CANCELLED)) {
      JsonNode id = msg.at("/params/requestId");
      if (!id.isMissingNode()) cancelled(scope, scope + id.toString());
    }
    return line;
  }

  private void cancelled(String scope, String requestId) {
    String callId = callByRequest.get(requestId);
    if (callId != null) {
      cancel.accept(callId);
    } else {
      early.add(scope, requestId);
    }
  }

  /** A call's handler starts: its request (from the call's {@code _meta}) is this call id. */
  public void started(String scope, Object requestId, String callId) {
    String key = requestId.toString();
    callByRequest.put(key, callId);
    if (early.take(scope, key)) cancel.accept(callId);
  }

  public void finished(Object requestId) {
    callByRequest.remove(requestId.toString());
  }
}
