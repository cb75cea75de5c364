package dev.steward.app.agent;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Wraps the user's approver so that Stop answers an open dialog with "declined" — also one that
 * opens just after Stop was pressed, until the next turn starts.
 */
final class StoppableApprover implements Approver {

  private final Approver delegate;
  private @Nullable CompletableFuture<List<Answer>> open;
  private @Nullable Request openRequest;
  private boolean stopped;

  StoppableApprover(Approver delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletableFuture<List<Answer>> review(Request request) {
    return review(request, behind -> {});
  }

  @Override
  public CompletableFuture<List<Answer>> review(
      Request request, java.util.function.Consumer<Boolean> behindAnother) {
    CompletableFuture<List<Answer>> answer = delegate.review(request, behindAnother);
    synchronized (this) {
      open = answer;
      openRequest = request;
      if (stopped) decline(answer, request);
    }
    return answer;
  }

  synchronized void startTurn() {
    stopped = false;
    open = null;
    openRequest = null;
  }

  synchronized void stop() {
    stopped = true;
    if (open != null && openRequest != null) decline(open, openRequest);
  }

  private static void decline(CompletableFuture<List<Answer>> answer, Request request) {
    answer.complete(request.calls().stream()
        .map(p -> new Answer(p.call().callId(), Verdict.DECLINED, p.call().args(), false))
        .toList());
  }
}
