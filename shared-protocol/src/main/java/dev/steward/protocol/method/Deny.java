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

  /**
   * {@code by_user} (beyond SPEC §3.1, optional): false for calls the window turned away itself,
   * with no one's click (an answer's calls past its limit); their whole arguments are not kept
   * beside the log, as for a blocked call. Absent: the user's own no.
   */
  public record Params(
      @Nullable String requestId,
      @Nullable String traceId,
      @Nullable List<Call> calls,
      @Nullable String conversationId,
      @Nullable String reason,
      @Nullable Boolean byUser) {

    public Params(
        @Nullable String requestId,
        @Nullable String traceId,
        @Nullable List<Call> calls,
        @Nullable String conversationId,
        @Nullable String reason) {
      this(requestId, traceId, calls, conversationId, reason, null);
    }
  }

  public record Result(List<String> auditIds) {}
}
