package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.Role;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@code tool.execute} as the gate sees it, with who sent it ({@link Caller}: role, connection,
 * conversation) and where its {@code tool.progress} messages go.
 */
public record CallRequest(
    String traceId,
    String callId,
    String tool,
    JsonNode args,
    @Nullable String confirmToken,
    @Nullable String idempotencyKey,
    Caller caller,
    Consumer<String> progress) {

  public Role role() {
    return caller.role();
  }

  /** A call from a connection with no conversation of its own (tests, scripts). */
  public CallRequest(
      String traceId,
      String callId,
      String tool,
      JsonNode args,
      @Nullable String confirmToken,
      @Nullable String idempotencyKey,
      Role role) {
    this(
        traceId,
        callId,
        tool,
        args,
        confirmToken,
        idempotencyKey,
        Caller.connection(role, "internal"),
        message -> {});
  }
}
