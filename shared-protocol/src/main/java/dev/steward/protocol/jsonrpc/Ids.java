package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/** JSON-RPC 2.0 ids: a string, an integral number, or null (only in error responses). */
final class Ids {

  private Ids() {}

  static boolean isValid(JsonNode id) {
    return id.isTextual() || id.isIntegralNumber() || id.isNull();
  }
}
