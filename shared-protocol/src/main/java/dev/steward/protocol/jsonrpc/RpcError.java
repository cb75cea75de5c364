package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The {@code error} member of a JSON-RPC response. */
public record RpcError(int code, String message, @Nullable JsonNode data) {

  public RpcError {
    Objects.requireNonNull(message, "message");
  }

  public static RpcError of(int code, String message) {
    return new RpcError(code, message, null);
  }
}
