package dev.steward.service.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.method.Approval;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.audit.AuditUnavailableException;
import dev.steward.service.gate.CallRequest;
import dev.steward.service.gate.Gate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Where a call from a client that cannot click (an MCP client) waits for the user (SPEC §12): the
 * window is sent {@code approval.requested}, shows its dialog, and answers with a token minted by
 * the ui role ({@code confirm.grant} with the request's id) or a denial. The token goes straight to
 * the waiting call, never to the client that asked; a denial, the deadline, a second request while
 * one waits, or the client going away is recorded in the audit log as any declined call is.
 */
final class ApprovalDesk {

  /** How long a call waits for the user: the lifetime of the token a dialog would mint. */
  static final Duration WAIT = Duration.ofSeconds(120);

  /**
   * Requests one client connection may have waiting at once: a client that cannot click must not
   * stack dialogs on the user; a second is refused, with a reason its model can read.
   */
  static final int PER_CONNECTION = 1;

  /**
   * Requests all clients together may have waiting at once: one holder of the mcp role's secret
   * can open many connections and sessions, and must not stack their dialogs on the user either.
   */
  static final int ALL_CLIENTS = 3;

  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

  /** How a named conversation's key starts ({@link dev.steward.service.gate.Caller}). */
  private static final String NAMED = "conversation:";

  /** What the user said: a token for the call (with the arguments approved), or no. */
  private sealed interface Answer {}

  private record Granted(String token, JsonNode args) implements Answer {}

  /** {@code fromWindow}: the user's own no (the window closes its dialog itself). */
  private record Declined(String reason, boolean fromWindow) implements Answer {}

  /** The client cancelled the call while it waited. */
  private record Cancelled() implements Answer {}

  private record Waiting(
      String tool,
      String traceId,
      String connection,
      String callId,
      CompletableFuture<Answer> answer) {}

  private final Gate gate;
  private final Clock clock;
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  private volatile Predicate<Notification> toWindow = n -> false;

  ApprovalDesk(Gate gate, Clock clock) {
    this.gate = gate;
    this.clock = clock;
  }

  /** How the desk reaches the window: answers whether any window connection got it. */
  void sendTo(Predicate<Notification> window) {
    this.toWindow = window;
  }

  /**
   * Runs a call that needs the user's click once the window has given it; without a window, or
   * when the user says no or lets the dialog expire, the call fails and says why.
   */
  ToolResult execute(
      CallRequest call, String client, int clientsAlike, Preflight.Result preflight) {
    String requestId = "approval-" + UUID.randomUUID();
    Instant expires = clock.instant().plus(WAIT);
    String connection = call.caller().connection();
    Waiting w = new Waiting(
        call.tool(), call.traceId(), connection, call.callId(), new CompletableFuture<>());
    synchronized (waiting) {
      // Counted while they wait for the user: an approved call that runs on waits for no one.
      long mine = waiting.values().stream()
          .filter(o -> o.connection().equals(connection) && !o.answer().isDone())
          .count();
      if (mine >= PER_CONNECTION)
        return declined(
            call, "another call from this client already waits for the user's answer", false);
      if (waiting.values().stream().filter(o -> !o.answer().isDone()).count() >= ALL_CLIENTS)
        return declined(
            call,
            ALL_CLIENTS + " calls from MCP clients already wait for the user's answer; ask again"
                + " once the user has answered them",
            false);
      waiting.put(requestId, w);
    }
    try {
      // Cancelled before it came here (its cancel overtook it): no dialog at all.
      if (gate.cancelledEarly(connection, call.callId())) return cancelled(call);
      String conversation = call.caller().conversation();
      Approval.Requested asked = new Approval.Requested(
          requestId,
          client,
          call.traceId(),
          List.of(new Approval.Call(call.tool(), call.args(), preflight)),
          expires,
          conversation.startsWith(NAMED) ? conversation.substring(NAMED.length()) : null,
          clientsAlike > 0 ? clientsAlike : null);
      if (!toWindow.test(new Notification(Methods.APPROVAL_REQUESTED, Json.pojo(asked)))) {
        return gate.execute(call); // no window to ask: refused, and audited, as TOKEN_MISSING
      }
      if (gate.cancelledEarly(connection, call.callId())) w.answer().complete(new Cancelled());
      Answer answer = await(w.answer(), call, expires);
      if (!(answer instanceof Granted) && !(answer instanceof Declined d && d.fromWindow()))
        withdraw(requestId, answer);
      if (answer instanceof Cancelled) return cancelled(call);
      if (answer instanceof Granted g) {
        return gate.execute(new CallRequest(
            call.traceId(),
            call.callId(),
            call.tool(),
            g.args(),
            g.token(),
            call.idempotencyKey(),
            call.caller(),
            call.progress()));
      }
      Declined no = (Declined) answer;
      return declined(call, no.reason(), no.fromWindow());
    } finally {
      waiting.remove(requestId);
    }
  }

  /** Tells the window that a request it may be showing waits no more: its dialog closes. */
  private void withdraw(String requestId, Answer answer) {
    String reason = answer instanceof Declined d ? d.reason() : "the client cancelled the call";
    toWindow.test(new Notification(
        Methods.APPROVAL_WITHDRAWN, Json.pojo(new Approval.Withdrawn(requestId, reason))));
  }

  /** A cancelled call: denied in the log as the client's doing, and answered as cancelled. */
  private ToolResult cancelled(CallRequest call) {
    return denied(
        call,
        "cancelled by the client while it waited for the user",
        ToolError.of(ToolErrorCodes.CANCELLED, "the call was cancelled before anyone approved it"),
        false);
  }

  /**
   * A denied row for the call, and the result that tells the client why it did not run; {@code
   * byTheUser}: the user's own no in the window.
   */
  private ToolResult declined(CallRequest call, String reason, boolean byTheUser) {
    return denied(
        call,
        reason,
        ToolError.of(ToolErrorCodes.CONFIRMATION_REQUIRED, "the call did not run: " + reason),
        byTheUser);
  }

  /** The call's denied row ({@code reason}), then {@code said} — unless the log cannot keep it. */
  private ToolResult denied(CallRequest call, String reason, ToolError said, boolean byTheUser) {
    try {
      gate.denied(
          call.caller(),
          call.traceId(),
          call.callId(),
          call.tool(),
          call.args(),
          reason,
          byTheUser);
    } catch (AuditUnavailableException e) {
      return ToolResult.failure(
          ToolError.of(
              ToolErrorCodes.UNAVAILABLE,
              "the call did not run (" + reason + "), and the audit log could not record it"),
          null);
    }
    return ToolResult.failure(said, null);
  }

  private Answer await(CompletableFuture<Answer> answer, CallRequest call, Instant expires) {
    call.progress().accept("waiting for the user's approval in the Steward window");
    while (true) {
      long left = Duration.between(clock.instant(), expires).toMillis();
      if (left <= 0) return new Declined("no one approved it in the Steward window in time", false);
      try {
        return answer.get(Math.min(left, PROGRESS_EVERY.toMillis()), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        call.progress().accept("still waiting for the user's approval in the Steward window");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Declined("the service stopped while it waited", false);
      } catch (ExecutionException e) {
        return new Declined("the approval failed: " + e.getCause(), false);
      }
    }
  }

  /**
   * Gives a minted token to the call that waits under {@code requestId}; false when none waits
   * there for that tool and trace (then the token must not stay alive).
   */
  boolean grant(String requestId, String traceId, String tool, JsonNode args, String token) {
    Waiting w = waiting.get(requestId);
    if (w == null || !w.tool().equals(tool) || !w.traceId().equals(traceId)) return false;
    return w.answer().complete(new Granted(token, args));
  }

  boolean deny(String requestId, @Nullable String reason) {
    Waiting w = waiting.get(requestId);
    return w != null
        && w.answer()
            .complete(new Declined(
                reason == null || reason.isBlank() ? "declined by the user" : reason, true));
  }

  /** Whether a call of {@code tool} in {@code traceId} waits under {@code requestId}. */
  boolean waits(String requestId, String traceId, String tool) {
    Waiting w = waiting.get(requestId);
    return w != null && w.tool().equals(tool) && w.traceId().equals(traceId);
  }

  /**
   * A connection closed: what it left waiting is answered no, so that no one approves a call for a
   * client that is gone.
   */
  void abandon(String connection) {
    waiting.values().stream()
        .filter(w -> w.connection().equals(connection))
        .forEach(
            w -> w.answer().complete(new Declined("the client went away before an answer", false)));
  }

  /**
   * The client cancels a call of its connection that waits for the user: it waits no more, and the
   * window's dialog for it closes. False when no such call waits.
   */
  boolean cancel(String connection, String callId) {
    boolean found = false;
    for (Waiting w : waiting.values()) {
      if (w.connection().equals(connection) && w.callId().equals(callId))
        found |= w.answer().complete(new Cancelled());
    }
    return found;
  }
}
