package dev.steward.app.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.steward.app.agent.Approver;
import dev.steward.app.agent.ProposedCall;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The confirmation dialog on a real (headless) stage, without the service. */
class ApprovalDialogIT {

  private static Stage owner;

  @BeforeAll
  static void stage() throws Exception {
    owner = FxToolkit.registerPrimaryStage();
  }

  @AfterAll
  static void cleanUp() throws Exception {
    FxToolkit.cleanupStages();
  }

  private static <T> T fx(Callable<T> c) throws Exception {
    return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
  }

  private static Approver.Request request() throws Exception {
    ToolDefinition def = new ToolDefinition(
        "files.write_text",
        "w",
        Json.parse("{\"type\":\"object\"}"),
        Json.parse("{}"),
        Risk.MEDIUM,
        Confirmation.ALWAYS,
        List.of());
    return new Approver.Request(
        "t",
        List.of(new Approver.Pending(
            new ProposedCall("c1", def, Json.parse("{\"path\":\"a.txt\"}")),
            new Preflight.Result(
                Preflight.CONFIRM,
                "needs your confirmation",
                Risk.MEDIUM,
                true,
                null,
                null,
                List.of(),
                List.of("/w/a.txt"),
                null))),
        Instant.now().plusSeconds(120));
  }

  /** A dialog over the owner window, shown; its answer. */
  private static ApprovalDialog shown(CompletableFuture<List<Approver.Answer>> answer)
      throws Exception {
    Approver.Request request = request();
    return fx(() -> {
      owner.setScene(new Scene(new StackPane(), 400, 300));
      owner.show();
      ApprovalDialog d = new ApprovalDialog(
          new ApprovalViewModel(
              request,
              answer,
              Clock.systemUTC(),
              (tool, args) -> new CompletableFuture<>(),
              Platform::runLater,
              Arrival.FIRST),
          owner);
      d.show();
      return d;
    });
  }

  @Test
  void aDialogHiddenWithItsOwnerIsDeniedNotLeftWaiting() throws Exception {
    CompletableFuture<List<Approver.Answer>> answer = new CompletableFuture<>();
    ApprovalDialog dialog = shown(answer);
    // The hotkey hides the window. Whether its dialog is sent a close request then is the
    // platform's affair (here JavaFX sends one); either way the dialog is answered, not left open.
    fx(() -> {
      owner.hide();
      return null;
    });
    List<Approver.Answer> said = answer.get(5, TimeUnit.SECONDS);
    assertEquals(Approver.Verdict.DECLINED, said.get(0).verdict());
    assertFalse(fx(() -> dialog.stage().isShowing()));
  }

  @Test
  void aDialogHiddenWithoutACloseRequestIsDenied() throws Exception {
    // As a window manager may hide an owned window along with its owner.
    CompletableFuture<List<Approver.Answer>> answer = new CompletableFuture<>();
    ApprovalDialog dialog = shown(answer);
    fx(() -> {
      dialog.stage().hide();
      return null;
    });
    assertEquals(
        Approver.Verdict.DECLINED, answer.get(5, TimeUnit.SECONDS).get(0).verdict());
  }
}
