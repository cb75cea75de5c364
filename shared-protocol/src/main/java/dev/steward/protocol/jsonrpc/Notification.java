package dev.steward.protocol.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A one-way message: no id, and no response is ever sent for it. */
public record Notification(String method, @Nullable JsonNode params) implements Message {

  public Notification {
    Objects.requireNonNull(method, "method");
  }
}
