package dev.steward.protocol.jsonrpc;

/**
 * A JSON-RPC 2.0 message. Both ends ship together, so the family is closed: a request (has an id,
 * wants a response), a notification (no id, no response) or a response.
 */
public sealed interface Message permits Request, Notification, Response {

  String VERSION = "2.0";
}
