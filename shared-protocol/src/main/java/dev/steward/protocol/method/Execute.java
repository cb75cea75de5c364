package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** {@code tool.execute}, {@code tool.cancel} and {@code tool.undo}; the result is a ToolResult. */
public final class Execute {

  private Execute() {}

  /**
   * {@code conversation_id} names the conversation the call belongs to: the service keeps taint
   * per conversation (SPEC §10), and per connection for a client that sends none.
   */
  /** {@code in_prose}: as {@link Preflight.Params#inProse()}. */
  public record Params(
      String traceId,
      String callId,
      String tool,
      JsonNode args,
      @Nullable String confirmToken,
      @Nullable String idempotencyKey,
      @Nullable String conversationId,
      @Nullable Boolean inProse) {

    public Params(
        String traceId,
        String callId,
        String tool,
        JsonNode args,
        @Nullable String confirmToken,
        @Nullable String idempotencyKey,
        @Nullable String conversationId) {
      this(traceId, callId, tool, args, confirmToken, idempotencyKey, conversationId, null);
    }

    public Params(
        String traceId,
        String callId,
        String tool,
        JsonNode args,
        @Nullable String confirmToken,
        @Nullable String idempotencyKey) {
      this(traceId, callId, tool, args, confirmToken, idempotencyKey, null);
    }
  }

  public record CancelParams(String callId) {}

  public record CancelResult(boolean cancelled) {}

  public record UndoParams(String auditId) {}
}
