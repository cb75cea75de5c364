package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** {@code tool.execute}, {@code tool.cancel} and {@code tool.undo}; the result is a ToolResult. */
public final class Execute {

  private Execute() {}

  public record Params(
      String traceId,
      String callId,
      String tool,
      JsonNode args,
      @Nullable String confirmToken,
      @Nullable String idempotencyKey) {}

  public record CancelParams(String callId) {}

  public record CancelResult(boolean cancelled) {}

  public record UndoParams(String auditId) {}
}
