package dev.steward.app.approval;

import dev.steward.app.agent.Approver;
import dev.steward.app.agent.ServiceLink;
import dev.steward.protocol.method.Preflight;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.stage.Window;
import javafx.util.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Shows the confirmation dialog on the UI thread, one at a time ({@link ApprovalQueue}): the window
 * has one of these for its assistant and for other clients alike. The answer comes back through the
 * future.
 */
public final class FxApprover implements Approver {

  private final Supplier<@Nullable Window> owner;
  private final ServiceLink link;
  private final ApprovalQueue queue;

  public FxApprover(Supplier<@Nullable Window> owner, ServiceLink link) {
    this.owner = owner;
    this.link = link;
    this.queue =
        new ApprovalQueue(this::show, FxApprover::after, Clock.systemUTC(), Platform::runLater);
  }

  @Override
  public CompletableFuture<List<Answer>> review(Request request) {
    return review(request, behind -> {});
  }

  @Override
  public CompletableFuture<List<Answer>> review(
      Request request, java.util.function.Consumer<Boolean> behindAnother) {
    CompletableFuture<List<Answer>> answer = new CompletableFuture<>();
    Platform.runLater(() -> queue.add(request, answer, behindAnother));
    return answer;
  }

  private Runnable show(ApprovalQueue.Turn turn) {
    Request request = turn.request();
    ApprovalViewModel model = new ApprovalViewModel(
        request,
        turn.answer(),
        Clock.systemUTC(),
        (tool, args) -> link.preview(new Preflight.Params(
            request.traceId(),
            tool,
            args,
            request.conversationId(),
            // Calls of one answer: written among its words, or none of them.
            request.calls().stream().anyMatch(p -> p.call().inProse()) ? Boolean.TRUE : null)),
        Platform::runLater,
        turn.arrival());
    ApprovalDialog dialog = new ApprovalDialog(model, owner.get());
    dialog.show();
    return dialog.stage()::close;
  }

  private static Runnable after(java.time.Duration delay, Runnable action) {
    PauseTransition wait = new PauseTransition(Duration.millis(Math.max(0, delay.toMillis())));
    wait.setOnFinished(e -> action.run());
    wait.play();
    return wait::stop;
  }
}
