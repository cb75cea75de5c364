package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A call that expects a {@link Response} with the same id. */
public record Request(JsonNode id, String method, @Nullable JsonNode params) implements Message {

  public Request {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(method, "method");
    if (!Ids.isValid(id) || id.isNull()) {
      throw new IllegalArgumentException("a request id is a string or a number");
    }
  }
}
