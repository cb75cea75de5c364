package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.Role;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@code tool.execute} as the gate sees it, with the role of the connection that sent it and
 * where its {@code tool.progress} messages go.
 */
public record CallRequest(
    String traceId,
    String callId,
    String tool,
    JsonNode args,
    @Nullable String confirmToken,
    @Nullable String idempotencyKey,
    Role role,
    Consumer<String> progress) {

  public CallRequest(
      String traceId, String callId, String tool, JsonNode args, @Nullable String confirmToken, @Nullable String idempotencyKey, Role role) {
    this(traceId, callId, tool, args, confirmToken, idempotencyKey, role, message -> {});
  }
}
