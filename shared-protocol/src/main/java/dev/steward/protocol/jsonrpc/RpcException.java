package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** The one exception that carries a wire error; the dispatcher turns it into the response. */
public final class RpcException extends RuntimeException {

  private final RpcError error;

  public RpcException(int code, String message) {
    this(code, message, null);
  }

  public RpcException(int code, String message, @Nullable JsonNode data) {
    super(message, null, false, false);
    this.error = new RpcError(code, message, data);
  }

  public RpcException(RpcError error) {
    super(error.message(), null, false, false);
    this.error = error;
  }

  public RpcError error() {
    return error;
  }

  public static RpcException invalidParams(String message) {
    return new RpcException(ErrorCodes.INVALID_PARAMS, message);
  }
}
