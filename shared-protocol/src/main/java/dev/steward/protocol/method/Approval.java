package dev.steward.protocol.method;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code approval.requested} (SPEC §3.1): a call from a client that cannot click — an MCP client —
 * waits for the user. The window shows its dialog and answers with {@code confirm.grant} carrying
 * {@code request_id}, or {@code approval.deny} {@code {request_id}}.
 */
public final class Approval {

  private Approval() {}

  /** {@code approval.withdrawn}: the request no longer waits, and why (in the user's words). */
  public record Withdrawn(String requestId, String reason) {}

  /** One call that waits, with the gate's preflight of it. */
  public record Call(String tool, JsonNode args, Preflight.Result preflight) {}

  /**
   * {@code conversation_id} (beyond SPEC §3.1, optional): the session the call's taint is kept in,
   * so that the window's own preview of the call judges it as the gate does. {@code
   * clients_alike} (beyond SPEC §3.1, optional): how many other clients connected now give the same
   * name — a name is the client's own word, and one client can take another's.
   */
  public record Requested(
      String requestId,
      String client,
      String traceId,
      List<Call> calls,
      Instant expiresAt,
      @Nullable String conversationId,
      @Nullable Integer clientsAlike) {

    public Requested(
        String requestId,
        String client,
        String traceId,
        List<Call> calls,
        Instant expiresAt,
        @Nullable String conversationId) {
      this(requestId, client, traceId, calls, expiresAt, conversationId, null);
    }
  }
}
