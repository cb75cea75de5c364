package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code approval.deny} (ui role): the user said no. For the window's own agent the declined calls
 * are named ({@code trace_id}, {@code calls}); each gets an audit row with decision {@code
 * denied}, so the log shows every attempt, not only what ran. {@code reason} is the window's
 * words ("declined by you", "the approval expired").
 */
public final class Deny {

  private Deny() {}

  /** The most calls one {@code approval.deny} may name. */
  public static final int MAX_CALLS = 100;

  public record Call(String tool, JsonNode args, @Nullable String callId) {}

  public record Params(
      @Nullable String requestId,
      @Nullable String traceId,
      @Nullable List<Call> calls,
      @Nullable String conversationId,
      @Nullable String reason) {}

  public record Result(List<String> auditIds) {}
}
