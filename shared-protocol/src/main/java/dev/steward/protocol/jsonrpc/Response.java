package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The answer to a {@link Request}: exactly one of {@code result} and {@code error}. */
public record Response(
    JsonNode id, @Nullable JsonNode result, @Nullable RpcError error) implements Message {

  public Response {
    Objects.requireNonNull(id, "id (use NullNode when the request's id could not be read)");
    if ((result == null) == (error == null)) {
      throw new IllegalArgumentException("a response has either a result or an error");
    }
  }

  public static Response result(JsonNode id, JsonNode result) {
    return new Response(id, result, null);
  }

  public static Response error(@Nullable JsonNode id, RpcError error) {
    return new Response(id == null ? NullNode.instance : id, null, error);
  }

  public boolean isError() {
    return error != null;
  }
}
