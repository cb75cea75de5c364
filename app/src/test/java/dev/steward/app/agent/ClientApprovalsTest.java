package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.method.Approval;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.Risk;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ClientApprovalsTest {

  private final FakeLink link = new FakeLink();
  private final List<Approver.Request> asked = new ArrayList<>();

  private final Approver approver = request -> {
    asked.add(request);
    Approver.Pending p = request.calls().get(0);
    return CompletableFuture.completedFuture(List.of(new Approver.Answer(
        p.call().callId(),
        Approver.Verdict.APPROVED,
        Json.object().put("path", "user-" + asked.size() + ".txt"),
        false,
        List.of(),
        null,
        List.of("/w/user.txt"),
        List.of("fp-" + asked.size()))));
  };

  private static RuntimeException shownChanged() {
    return ClientException.rpc(new RpcError(
        -32602,
        "a file the dialog showed has changed since: show it again",
        Json.object()
            .put("reason", Grant.SHOWN_CHANGED)
            .set(
                "changed",
                Json.tree(
                    List.of(new Grant.Changed("files.write_text", "/w/user-1.txt", "replaced"))))));
  }

  private void request() {
    new ClientApprovals(approver, link, Clock.systemUTC()).requested(requested("req-1"));
  }

  @Test
  void what_changed_before_the_click_is_shown_again_once() {
    link.grantRefusals.add(shownChanged());
    request();
    assertEquals(2, asked.size(), "shown again");
    assertTrue(
        asked
            .get(1)
            .shownAgain()
            .contains("/w/user-1.txt was replaced (another file or folder is there now)"),
        String.valueOf(asked.get(1).shownAgain()));
    assertEquals(
        "user-1.txt",
        asked.get(1).calls().get(0).call().args().path("path").asText(),
        "with the arguments the user approved");
    assertEquals(2, link.grants.size());
    Grant.Params granted = link.grants.get(1);
    assertEquals("req-1", granted.requestId(), "the token goes to the waiting call");
    assertEquals(List.of("fp-2"), granted.calls().get(0).fingerprints());
    assertTrue(link.denied.isEmpty(), String.valueOf(link.denied));
  }

  @Test
  void what_changes_again_is_declined_to_the_client_with_why() {
    link.grantRefusals.add(shownChanged());
    link.grantRefusals.add(shownChanged());
    request();
    assertEquals(2, asked.size());
    assertEquals(1, link.denied.size());
    assertTrue(
        link.denied.get(0).reason().contains("could not be given"),
        link.denied.get(0).reason());
  }

  @Test
  void a_withdrawn_request_closes_its_dialog_unanswered_and_one_withdrawn_first_is_not_shown() {
    CompletableFuture<List<Approver.Answer>> dialog = new CompletableFuture<>();
    List<Approver.Request> shown = new ArrayList<>();
    ClientApprovals approvals = new ClientApprovals(
        request -> {
          shown.add(request);
          return dialog;
        },
        link,
        Clock.systemUTC());
    approvals.requested(requested("req-9"));
    assertEquals(1, shown.size());
    approvals.withdrawn(Json.mapper()
        .valueToTree(new Approval.Withdrawn("req-9", "the client cancelled the call")));
    assertTrue(dialog.isCompletedExceptionally(), "the dialog is closed");
    assertTrue(link.denied.isEmpty(), "nothing waits for a no: " + link.denied);
    assertTrue(link.grants.isEmpty());

    approvals.withdrawn(
        Json.mapper().valueToTree(new Approval.Withdrawn("req-10", "the client went away")));
    approvals.requested(requested("req-10"));
    assertEquals(1, shown.size(), "a request withdrawn before it came is not shown");
  }

  private static com.fasterxml.jackson.databind.JsonNode requested(String id) {
    Preflight.Result preflight = new Preflight.Result(
        Preflight.CONFIRM,
        "needs your confirmation",
        Risk.MEDIUM,
        true,
        null,
        null,
        null,
        null,
        null);
    return Json.mapper()
        .valueToTree(new Approval.Requested(
            id,
            "Some Client 1.0",
            "trace-1",
            List.of(new Approval.Call(
                "files.write_text", Json.object().put("path", "model.txt"), preflight)),
            Instant.now().plusSeconds(60),
            "mcp-session"));
  }

  @Test
  void aNameAnotherConnectedClientAlsoGivesIsSaidToBeShared() {
    Approval.Requested alone = new Approval.Requested(
        "r1", "Claude Desktop 1.0", "t", List.of(), Instant.now(), null, null);
    assertEquals("The MCP client \u201cClaude Desktop 1.0\u201d", ClientApprovals.asker(alone));
    Approval.Requested shared =
        new Approval.Requested("r1", "Claude Desktop 1.0", "t", List.of(), Instant.now(), null, 1);
    assertEquals(
        "The MCP client \u201cClaude Desktop 1.0\u201d (careful: 1 other client connected now"
            + " gives the same name)",
        ClientApprovals.asker(shared));
  }
}
