package dev.steward.protocol.jsonrpc;

/**
 * JSON-RPC error codes: the five standard ones and Steward's own in the server range
 * (-32000..-32099). These are for protocol faults only; a tool call the gate refuses is a normal
 * result with {@code ok: false}.
 */
public final class ErrorCodes {

  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /** The connection's role may not call this method (e.g. the agent asking for a token). */
  public static final int FORBIDDEN = -32001;

  /** More messages per second than the connection's limit. */
  public static final int RATE_LIMITED = -32002;

  /** More calls in flight on one connection than its limit. */
  public static final int TOO_MANY_CALLS = -32003;

  /** The service is shutting down or a resource it needs (the audit log) is not available. */
  public static final int UNAVAILABLE = -32004;

  private ErrorCodes() {}
}
