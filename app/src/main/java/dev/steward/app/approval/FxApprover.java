package dev.steward.app.approval;

import dev.steward.app.agent.Approver;
import dev.steward.app.agent.ServiceLink;
import dev.steward.protocol.method.Preflight;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.stage.Window;
import org.jspecify.annotations.Nullable;

/** Shows the confirmation dialog on the UI thread; the answer comes back through the future. */
public final class FxApprover implements Approver {

  private final Supplier<@Nullable Window> owner;
  private final ServiceLink link;

  public FxApprover(Supplier<@Nullable Window> owner, ServiceLink link) {
    this.owner = owner;
    this.link = link;
  }

  @Override
  public CompletableFuture<List<Answer>> review(Request request) {
    CompletableFuture<List<Answer>> answer = new CompletableFuture<>();
    Platform.runLater(() -> {
      ApprovalViewModel model = new ApprovalViewModel(
          request,
          answer,
          Clock.systemUTC(),
          (tool, args) -> link.preview(new Preflight.Params(
              request.traceId(),
              tool,
              args,
              request.conversationId(),
              // Calls of one answer: written among its words, or none of them.
              request.calls().stream().anyMatch(p -> p.call().inProse()) ? Boolean.TRUE : null)),
          Platform::runLater);
      new ApprovalDialog(model, owner.get()).show();
    });
    return answer;
  }
}
