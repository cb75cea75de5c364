package dev.steward.app.agent;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** Wraps the user's approver so that Stop answers an open dialog with "declined". */
final class StoppableApprover implements Approver {

  private final Approver delegate;
  private volatile @Nullable CompletableFuture<List<Answer>> open;
  private volatile @Nullable Request openRequest;

  StoppableApprover(Approver delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletableFuture<List<Answer>> review(Request request) {
    CompletableFuture<List<Answer>> answer = delegate.review(request);
    open = answer;
    openRequest = request;
    return answer.whenComplete((a, e) -> open = null);
  }

  void stop() {
    CompletableFuture<List<Answer>> f = open;
    Request r = openRequest;
    if (f != null && r != null) {
      f.complete(r.calls().stream().map(p -> new Answer(p.call().callId(), Verdict.DECLINED, p.call().args(), false)).toList());
    }
  }
}
