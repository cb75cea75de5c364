package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Preflight;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Asks the user about calls the gate wants confirmed. All calls of one turn that need a click are
 * asked about together, so one dialog (and one token) covers them.
 */
public interface Approver {

  /** One call to decide on, with the gate's preflight (reason, risk, preview, taint). */
  record Pending(ProposedCall call, Preflight.Result preflight) {}

  /**
   * The calls, and the moment the approval (and so the token it mints) runs out. {@code asker} is
   * the client that asks when it is not the window's own assistant (an MCP client's name); {@code
   * shownAgain}, for calls shown again because what the dialog showed changed before the click,
   * says what changed. {@code window}, when set, is counted from the moment the dialog is shown
   * ({@link #shownAt}), not from when the request was made: a request that waited behind another
   * dialog still gets all of it. {@code deadline} is then the deadline were it shown at once.
   */
  record Request(
      String traceId,
      @Nullable String conversationId,
      List<Pending> calls,
      Instant deadline,
      @Nullable String asker,
      @Nullable String shownAgain,
      @Nullable Duration window) {

    public Request(
        String traceId,
        @Nullable String conversationId,
        List<Pending> calls,
        Instant deadline,
        @Nullable String asker) {
      this(traceId, conversationId, calls, deadline, asker, null, null);
    }

    public Request(
        String traceId, @Nullable String conversationId, List<Pending> calls, Instant deadline) {
      this(traceId, conversationId, calls, deadline, null, null, null);
    }

    public Request(String traceId, List<Pending> calls, Instant deadline) {
      this(traceId, null, calls, deadline, null, null, null);
    }

    /**
     * The assistant's own request: it waits for its dialog as long as the turn does (Stop ends
     * it), and the dialog then counts down {@code window} from when it appears.
     */
    public static Request counting(
        String traceId,
        @Nullable String conversationId,
        List<Pending> calls,
        Instant now,
        Duration window) {
      return new Request(traceId, conversationId, calls, now.plus(window), null, null, window);
    }

    /** The same request, shown again for what {@code changes} says changed since. */
    public Request shownAgain(List<Grant.Changed> changes) {
      return new Request(
          traceId, conversationId, calls, deadline, asker, whatChanged(changes), window);
    }

    /** The request as its dialog shows it from {@code now}: its window, if any, counts from now. */
    public Request shownAt(Instant now) {
      Duration w = window;
      return w == null
          ? this
          : new Request(traceId, conversationId, calls, now.plus(w), asker, shownAgain, null);
    }
  }

  /** What the dialog shown again says: which paths changed and how, or that something did. */
  static String whatChanged(List<Grant.Changed> changes) {
    String what = changes.isEmpty()
        ? "something it showed changed (a file was written, or a link now points elsewhere)"
        : Grant.Changed.said(changes);
    return "Shown again: since you first saw this, " + what
        + ". Nothing ran. Check it as it is now before you approve.";
  }

  enum Verdict {
    APPROVED,
    DECLINED,
    EXPIRED
  }

  /**
   * The user's answer for one call: the arguments they approved (maybe edited). With {@code
   * alwaysAllow}, a standing grant for {@code grantFolders} goes with it, until {@code grantUntil}
   * (null: until revoked). {@code shown}: the real paths the dialog showed for the approved
   * arguments (its own preview of them), and {@code fingerprints} what each named then; the token
   * is bound to both. Null when the dialog showed none. {@code until}: the deadline the dialog
   * counted down to, which the token's lifetime ends at too; null: the request's own.
   */
  record Answer(
      String callId,
      Verdict verdict,
      JsonNode args,
      boolean alwaysAllow,
      List<String> grantFolders,
      java.time.@org.jspecify.annotations.Nullable Instant grantUntil,
      @org.jspecify.annotations.Nullable List<String> shown,
      @org.jspecify.annotations.Nullable List<String> fingerprints,
      @Nullable Instant until) {

    public Answer {
      grantFolders = List.copyOf(grantFolders);
      if (shown != null) shown = List.copyOf(shown);
      if (fingerprints != null) fingerprints = List.copyOf(fingerprints);
    }

    public Answer(
        String callId,
        Verdict verdict,
        JsonNode args,
        boolean alwaysAllow,
        List<String> grantFolders,
        @Nullable Instant grantUntil,
        @Nullable List<String> shown,
        @Nullable List<String> fingerprints) {
      this(callId, verdict, args, alwaysAllow, grantFolders, grantUntil, shown, fingerprints, null);
    }

    public Answer(String callId, Verdict verdict, JsonNode args, boolean alwaysAllow) {
      this(callId, verdict, args, alwaysAllow, List.of(), null, null, null, null);
    }

    /** The grant's form of this answer: the call as approved, bound to what the dialog showed. */
    public Grant.Call grantCall(String tool) {
      return new Grant.Call(tool, args, shown, fingerprints);
    }
  }

  CompletableFuture<List<Answer>> review(Request request);

  /**
   * {@link #review(Request)}, telling {@code behindAnother} true when the request has to wait
   * behind another's dialog, and false when its own is shown after that.
   */
  default CompletableFuture<List<Answer>> review(Request request, Consumer<Boolean> behindAnother) {
    return review(request);
  }
}
