package dev.steward.protocol.client;

import dev.steward.protocol.jsonrpc.RpcError;
import org.jspecify.annotations.Nullable;

/** A call that did not get a result: the connection failed, or the service answered an error. */
public final class ClientException extends RuntimeException {

  private final @Nullable RpcError rpcError;
  private final int httpStatus;

  public ClientException(String message, @Nullable Throwable cause) {
    this(message, cause, null, 0);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }

  private ClientException(
      String message, @Nullable Throwable cause, @Nullable RpcError rpcError, int httpStatus) {
    super(message, cause);
    this.rpcError = rpcError;
    this.httpStatus = httpStatus;
  }

  public static ClientException rpc(RpcError error) {
    return new ClientException(error.message() + " (" + error.code() + ")", null, error, 0);
  }

  public static ClientException handshake(int status, @Nullable Throwable cause) {
    return new ClientException(
        "the service refused the connection: HTTP " + status, cause, null, status);
  }

  /** The JSON-RPC error the service answered, if that is why the call failed. */
  public @Nullable RpcError rpcError() {
    return rpcError;
  }

  /** The HTTP status of a refused handshake, or 0. */
  public int httpStatus() {
    return httpStatus;
  }
}
