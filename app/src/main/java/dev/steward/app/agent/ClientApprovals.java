package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Approval;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.util.Counted;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Calls from clients that cannot click — MCP clients, through the bridge — shown in the window's
 * own dialog, titled with the client's name. Approving mints a token for exactly the call as
 * approved (edited or not), which the service hands to the call that waits; declining, or letting
 * the dialog run out, is sent as a denial. The client never sees a token.
 */
public final class ClientApprovals {

  private final Approver approver;
  private final ServiceLink link;
  private final Clock clock;
  /** The dialog shown for each request that waits, by request id. */
  private final java.util.Map<String, java.util.concurrent.CompletableFuture<?>> showing =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** Requests the service withdrew (the last few): one that arrives after is not shown. */
  private final java.util.Set<String> withdrawn =
      java.util.Collections.newSetFromMap(new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) {
          return size() > 64;
        }
      });

  public ClientApprovals(Approver approver, ServiceLink link, Clock clock) {
    this.approver = approver;
    this.link = link;
    this.clock = clock;
  }

  /**
   * Handles one {@code approval.withdrawn}: the request waits no more (the client cancelled it or
   * went away, or it ran out), so its dialog closes unanswered.
   */
  public void withdrawn(JsonNode params) {
    Approval.Withdrawn w = Json.convert(params, Approval.Withdrawn.class);
    synchronized (withdrawn) {
      withdrawn.add(w.requestId());
    }
    java.util.concurrent.CompletableFuture<?> dialog = showing.remove(w.requestId());
    if (dialog != null)
      dialog.completeExceptionally(new java.util.concurrent.CancellationException(w.reason()));
  }

  private boolean isWithdrawn(String requestId) {
    synchronized (withdrawn) {
      return withdrawn.contains(requestId);
    }
  }

  /** Who asks, as the dialog says it: the client's name, and whether others give it too. */
  static String asker(Approval.Requested asked) {
    String named = "The MCP client \u201c" + asked.client() + "\u201d";
    Integer alike = asked.clientsAlike();
    if (alike == null || alike <= 0) return named;
    return named + " (careful: " + Counted.of(alike, "other client", "other clients")
        + " connected now " + (alike == 1 ? "gives" : "give") + " the same name)";
  }

  /** Handles one {@code approval.requested} notification's parameters. */
  public void requested(JsonNode params) {
    Approval.Requested asked = Json.convert(params, Approval.Requested.class);
    if (isWithdrawn(asked.requestId())) return;
    if (asked.calls().size() != 1) {
      deny(asked, "the window approves one call from a client at a time");
      return;
    }
    Approval.Call call = asked.calls().get(0);
    Optional<ToolDefinition> tool =
        link.tools().stream().filter(t -> t.name().equals(call.tool())).findFirst();
    if (tool.isEmpty()) {
      deny(asked, "the window does not know the tool " + call.tool());
      return;
    }
    review(asked, call, new ProposedCall(asked.requestId(), tool.get(), call.args()), 0, List.of());
  }

  /**
   * Shows the call and answers the waiting request; {@code round}: how many times it was shown
   * already ({@link CallRunner#SHOWN_AGAIN}), and {@code changed} what had changed then.
   */
  private void review(
      Approval.Requested asked,
      Approval.Call call,
      ProposedCall proposed,
      int round,
      List<Grant.Changed> changed) {
    Approver.Request request = new Approver.Request(
        asked.traceId(),
        // The window's preview judges the call in the client's session, with its taint.
        asked.conversationId(),
        List.of(new Approver.Pending(proposed, call.preflight())),
        asked.expiresAt(),
        // The name is the client's own word: quoted, and said to be an MCP client's, so that no
        // client can pass for Steward's own assistant in the title — nor, unsaid, for another.
        asker(asked));
    java.util.concurrent.CompletableFuture<List<Approver.Answer>> dialog =
        approver.review(round == 0 ? request : request.shownAgain(changed));
    showing.put(asked.requestId(), dialog);
    // Withdrawn while it was being shown: closed at once.
    if (isWithdrawn(asked.requestId()) && showing.remove(asked.requestId(), dialog))
      dialog.completeExceptionally(new java.util.concurrent.CancellationException("withdrawn"));
    dialog.whenComplete((answers, error) -> {
      showing.remove(asked.requestId(), dialog);
      if (isWithdrawn(asked.requestId())) return; // nothing waits for an answer
      Approver.Answer a =
          error == null && answers != null && !answers.isEmpty() ? answers.get(0) : null;
      if (a == null || a.verdict() != Approver.Verdict.APPROVED) {
        deny(
            asked,
            a != null && a.verdict() == Approver.Verdict.EXPIRED
                ? "the approval expired"
                : "declined by you");
        return;
      }
      long ttl =
          Math.max(1, Duration.between(clock.instant(), asked.expiresAt()).toSeconds());
      try {
        link.grant(new Grant.Params(
            asked.traceId(),
            List.of(a.grantCall(call.tool())),
            null,
            null,
            (int) Math.min(ttl, 600),
            null,
            asked.requestId()));
      } catch (RuntimeException e) {
        if (Grant.shownChanged(e) && round < CallRunner.SHOWN_AGAIN) {
          // What the user approved is no longer so: shown again as it is now.
          review(asked, call, proposed.withArgs(a.args()), round + 1, Grant.changes(e));
          return;
        }
        // Not granted after all (the request ran out as the dialog closed): say no at once
        // rather than leave the client waiting for the deadline. What changed is not the
        // client's to read: the service's words name the user's real paths.
        deny(
            asked,
            Grant.shownChanged(e)
                ? "the approval could not be given: what it showed changed before the click"
                : "the approval could not be given: " + e.getMessage());
      }
    });
  }

  private void deny(Approval.Requested asked, String reason) {
    try {
      link.declined(new Deny.Params(asked.requestId(), null, null, null, reason));
    } catch (RuntimeException e) {
      // the request is gone already: nothing waits for the answer
    }
  }
}
