package dev.steward.service.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.RpcException;
import org.jspecify.annotations.Nullable;

/** Reads method params into records, turning every mistake into a -32602 that names it. */
public final class Params {

  private Params() {}

  public static <T> T read(JsonNode params, Class<T> type) {
    if (!params.isObject()) throw RpcException.invalidParams("params must be an object");
    try {
      return Json.convert(params, type);
    } catch (IllegalArgumentException e) {
      throw RpcException.invalidParams("invalid params: " + e.getMessage());
    }
  }

  public static <T> T require(@Nullable T value, String name) {
    if (value == null) throw RpcException.invalidParams("missing \"" + name + "\"");
    return value;
  }
}
