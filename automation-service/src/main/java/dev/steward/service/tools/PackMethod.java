package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC method a pack offers the window (its settings: a server's state, accepting a tool).
 * Only the ui role may call it: it configures what the model's tools are.
 */
public record PackMethod(String name, Handler handler) {

  public PackMethod {
    if (name.indexOf('.') < 1 || name.endsWith(".")) {
      throw new IllegalArgumentException("a pack's method is named <pack>.<verb>: " + name);
    }
  }

  /** Answers the method's params; a {@link ToolFailure} is the caller's error, sent as such. */
  @FunctionalInterface
  public interface Handler {
    Object handle(JsonNode params) throws ToolFailure;
  }
}
