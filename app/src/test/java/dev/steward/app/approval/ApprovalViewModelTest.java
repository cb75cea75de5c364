package dev.steward.app.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.Approver;
import dev.steward.app.agent.ProposedCall;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ApprovalViewModelTest {

  private Instant now = Instant.parse("2026-11-26T10:00:00Z");
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  };
  private final CompletableFuture<List<Approver.Answer>> answer = new CompletableFuture<>();

  private static Approver.Pending pending(String id, Risk risk, String args) throws Exception {
    ToolDefinition def = new ToolDefinition(
        "files.write_text",
        "w",
        Json.parse("{\"type\":\"object\"}"),
        Json.parse("{}"),
        risk,
        Confirmation.ALWAYS,
        List.of());
    JsonNode preview = Json.parse(
        "{\"operation\":\"write\",\"path\":\"/w/a.txt\",\"overwrites\":true,\"diff\":\"-old\\n+new\\n\"}");
    return new Approver.Pending(
        new ProposedCall(id, def, Json.parse(args)),
        new Preflight.Result(
            Preflight.CONFIRM,
            "needs your confirmation",
            risk,
            true,
            null,
            null,
            List.of(),
            List.of("/w/a.txt"),
            preview));
  }

  /** The gate's check, here: {@code path} must be a string; the preview names the file under /w. */
  private static CompletableFuture<Preflight.Result> check(String tool, JsonNode args) {
    return CompletableFuture.completedFuture(gate(args));
  }

  private static Preflight.Result gate(JsonNode args) {
    boolean ok = args.path("path").isTextual();
    if (!ok) {
      return new Preflight.Result(
          Preflight.DENY,
          "integer found, string expected",
          Risk.MEDIUM,
          true,
          "VALIDATION_ERROR",
          "/path",
          null,
          null,
          null);
    }
    String path = "/w/" + args.get("path").asText();
    JsonNode preview = Json.object()
        .put("operation", "write")
        .put("path", path)
        .put("overwrites", true)
        .put("diff", args.path("content").asText("new").equals("old") ? "" : "-old\n+new\n");
    return new Preflight.Result(
        Preflight.CONFIRM,
        "fine",
        Risk.MEDIUM,
        true,
        null,
        null,
        null,
        List.of(path),
        preview,
        List.of("/w"));
  }

  private ApprovalViewModel model(Approver.Pending... calls) {
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request("t", List.of(calls), now.plusSeconds(120)),
        answer,
        clock,
        ApprovalViewModelTest::check,
        Runnable::run,
        Arrival.FIRST);
    vm.arm();
    return vm;
  }

  @Test
  void alwaysAllowLastsAsLongAsTheUserPicks() throws Exception {
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, "{\"path\":\"notes/a.txt\"}"));
    assertTrue(vm.alwaysAllowCovers().contains("until you revoke it"), vm.alwaysAllowCovers());
    vm.grantSpanProperty().set(GrantSpan.ONE_HOUR);
    assertTrue(vm.alwaysAllowCovers().contains("for an hour"), vm.alwaysAllowCovers());
    vm.alwaysAllow();
    Approver.Answer a = answer.join().get(0);
    assertTrue(a.alwaysAllow());
    assertEquals(now.plusSeconds(3600), a.grantUntil());
    assertEquals(
        List.of("/w/notes/a.txt"),
        a.shown(),
        "the token binds the paths of the dialog's own preview, not those of the model's preflight");
  }

  @Test
  void nothingACallSaysCanHideOrReorderWhatTheDialogShows() throws Exception {
    String args = "{\"path\":\"invoice\\u202etxt.exe\",\"content\":\"a\\u2028b\\u007f\"}";
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, args));
    ApprovalItem item = vm.items().get(0);
    String editor = item.argsTextProperty().get();
    assertFalse(
        editor
            .chars()
            .anyMatch(c -> c != '\n' && dev.steward.protocol.util.ShownText.isHidden((char) c)),
        editor);
    assertTrue(editor.contains("invoice\\u202etxt.exe"), editor);
    assertEquals(Json.parse(args), Json.parse(editor), "read back, the very same arguments");
    assertTrue(item.currentProperty().get(), "and approvable as they are");
    assertTrue(item.inWords().contains("/w/invoice\\u202etxt.exe"), item.inWords());
    assertEquals(List.of("/w/invoice\\u202etxt.exe"), item.scopes());
  }

  /** The gate's check where a folder's name hides a reversal, and a refusal quotes the path. */
  private static CompletableFuture<Preflight.Result> hostileCheck(String tool, JsonNode args) {
    String path = args.path("path").asText();
    if (path.startsWith("deny"))
      return CompletableFuture.completedFuture(new Preflight.Result(
          Preflight.DENY,
          "outside the allowed folders: \"" + path + "\"\nApprove to continue",
          Risk.MEDIUM,
          true,
          "SCOPE_DENIED",
          "/path\u202e",
          null,
          null,
          null,
          null));
    Preflight.Result fine = gate(args);
    return CompletableFuture.completedFuture(new Preflight.Result(
        fine.decision(),
        fine.reason(),
        fine.risk(),
        fine.destructive(),
        null,
        null,
        null,
        fine.paths(),
        fine.preview(),
        List.of("/w/gpj\u202e.exe")));
  }

  @Test
  void whatAlwaysAllowCoversAndTheProblemLineWriteHiddenCharactersOut() throws Exception {
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request(
            "t", List.of(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}")), now.plusSeconds(120)),
        answer,
        clock,
        ApprovalViewModelTest::hostileCheck,
        Runnable::run,
        Arrival.FIRST);
    vm.arm();
    String covers = vm.alwaysAllowCovers();
    assertTrue(covers.contains("/w/gpj\\u202e.exe"), covers);
    assertFalse(covers.contains("\u202e"), covers);
    ApprovalItem item = vm.items().get(0);
    item.argsTextProperty().set("{\"path\":\"deny\u2067x\"}");
    String problem = item.problemProperty().get();
    assertTrue(problem.startsWith("Not allowed: outside the allowed folders"), problem);
    assertTrue(problem.contains("deny\\u2067x\"\\u000aApprove"), problem);
    assertTrue(problem.contains("(at /path\\u202e)"), problem);
    assertTrue(
        problem.chars().noneMatch(c -> c == '\n' || c == '\u2067' || c == '\u202e'), problem);
  }

  @Test
  void anotherClientsCallIsNeverOfferedAStandingGrant() throws Exception {
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request(
            "t",
            null,
            List.of(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}")),
            now.plusSeconds(120),
            "The MCP client \u201cX\u202e\u201d"),
        answer,
        clock,
        ApprovalViewModelTest::check,
        Runnable::run,
        Arrival.FIRST);
    vm.arm();
    assertTrue(vm.canApproveProperty().get());
    assertFalse(vm.canAlwaysAllowProperty().get(), "a standing grant is the assistant's alone");
    assertEquals("The MCP client \u201cX\\u202e\u201d asks Steward to act", vm.title());
  }

  @Test
  void approveDoesNothingUntilTheDialogIsArmed() throws Exception {
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request(
            "t", List.of(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}")), now.plusSeconds(120)),
        answer,
        clock,
        ApprovalViewModelTest::check,
        Runnable::run,
        Arrival.FIRST);
    assertFalse(
        vm.canApproveProperty().get(),
        "a key already on its way must not approve an unseen dialog");
    vm.approve();
    assertFalse(answer.isDone());
    vm.arm();
    assertTrue(vm.canApproveProperty().get());
    vm.approve();
    assertEquals(Approver.Verdict.APPROVED, answer.join().get(0).verdict());
  }

  @Test
  void showsWhatWillHappenAndApprovesAllTickedCalls() throws Exception {
    ApprovalViewModel vm = model(
        pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"),
        pending("c2", Risk.MEDIUM, "{\"path\":\"b.txt\"}"));
    ApprovalItem first = vm.items().get(0);
    assertTrue(first.inWords().startsWith("Overwrite /w/a.txt"), first.inWords());
    assertEquals("-old\n+new\n", first.diff());
    assertEquals(List.of("/w/a.txt"), first.scopes());
    assertTrue(vm.canApproveProperty().get());
    vm.items().get(1).tickedProperty().set(false);
    vm.approve();
    List<Approver.Answer> answers = answer.join();
    assertEquals(Approver.Verdict.APPROVED, answers.get(0).verdict());
    assertEquals(Approver.Verdict.DECLINED, answers.get(1).verdict());
    assertFalse(vm.canApproveProperty().get(), "one answer only");
  }

  @Test
  void editsAreCheckedLiveAndBadOnesBlockApproval() throws Exception {
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"));
    ApprovalItem item = vm.items().get(0);
    item.argsTextProperty().set("{\"path\": ");
    assertTrue(item.problemProperty().get().startsWith("Not a JSON object"));
    assertFalse(vm.canApproveProperty().get());
    item.argsTextProperty().set("{\"path\": 42}");
    assertEquals(
        "Invalid: integer found, string expected (at /path)",
        item.problemProperty().get());
    assertFalse(vm.canApproveProperty().get());
    item.argsTextProperty().set("{\"path\": \"c.txt\"}");
    assertEquals("", item.problemProperty().get());
    assertTrue(item.edited());
    vm.approve();
    assertEquals("c.txt", answer.join().get(0).args().get("path").asText());
  }

  @Test
  void untickingEverythingLeavesOnlyDeny() throws Exception {
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"));
    vm.items().get(0).tickedProperty().set(false);
    assertFalse(vm.canApproveProperty().get());
    vm.approve();
    assertFalse(answer.isDone());
    vm.deny();
    assertEquals(Approver.Verdict.DECLINED, answer.join().get(0).verdict());
  }

  @Test
  void theCountdownEndsTheApprovalAsExpired() throws Exception {
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"));
    assertEquals(120, vm.secondsLeftProperty().get());
    now = now.plusMillis(60_500);
    vm.tick();
    assertEquals(60, vm.secondsLeftProperty().get());
    assertFalse(answer.isDone());
    now = now.plusSeconds(60);
    vm.tick();
    assertEquals(0, vm.secondsLeftProperty().get());
    assertEquals(Approver.Verdict.EXPIRED, answer.join().get(0).verdict());
  }

  @Test
  void highRiskStartsOnDenyAndIsNeverOfferedAlwaysAllow() throws Exception {
    ApprovalViewModel high = model(pending("c1", Risk.HIGH, "{\"path\":\"a.txt\"}"));
    assertTrue(high.focusDenyFirst());
    assertFalse(high.items().get(0).alwaysAllowOffered());
    assertFalse(high.canAlwaysAllowProperty().get());
    high.alwaysAllow();
    assertFalse(answer.isDone(), "no grant for high risk, not even by a stray call");
  }

  @Test
  void alwaysAllowIsOfferedOnlyWhenNoTickedCallIsHighRisk() throws Exception {
    ApprovalViewModel vm = model(
        pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"),
        pending("c2", Risk.HIGH, "{\"path\":\"b.txt\"}"));
    assertFalse(vm.canAlwaysAllowProperty().get());
    vm.items().get(1).tickedProperty().set(false);
    assertTrue(vm.canAlwaysAllowProperty().get());
  }

  @Test
  void mediumRiskOffersAlwaysAllow() throws Exception {
    ApprovalViewModel vm = model(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}"));
    assertFalse(vm.focusDenyFirst());
    assertTrue(vm.items().get(0).alwaysAllowOffered());
    assertTrue(vm.canAlwaysAllowProperty().get());
    vm.alwaysAllow();
    assertTrue(answer.join().get(0).alwaysAllow());
  }

  @Test
  void whatIsShownAlwaysBelongsToTheArgumentsInTheEditor() throws Exception {
    java.util.Map<String, CompletableFuture<Preflight.Result>> asked =
        new java.util.LinkedHashMap<>();
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request(
            "t", List.of(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}")), now.plusSeconds(120)),
        answer,
        clock,
        (tool, args) -> asked.computeIfAbsent(args.toString(), k -> new CompletableFuture<>()),
        Runnable::run,
        Arrival.FIRST);
    vm.arm();
    ApprovalItem item = vm.items().get(0);
    assertFalse(
        vm.canApproveProperty().get(),
        "not before the window's own preview of these arguments is in");
    asked.get("{\"path\":\"a.txt\"}").complete(gate(Json.parse("{\"path\":\"a.txt\"}")));
    assertTrue(vm.canApproveProperty().get());

    item.argsTextProperty().set("{\"path\": \"secrets.txt\"}");
    assertFalse(vm.canApproveProperty().get(), "the headline and diff still describe a.txt");
    assertTrue(item.inWords().contains("/w/a.txt"));
    item.argsTextProperty().set("{\"path\": \"b.txt\"}");
    asked
        .get("{\"path\":\"secrets.txt\"}")
        .complete(gate(Json.parse("{\"path\":\"secrets.txt\"}")));
    assertFalse(
        vm.canApproveProperty().get(), "a preview of older arguments is not shown as this one's");
    assertTrue(item.inWords().contains("/w/a.txt"), item.inWords());
    asked.get("{\"path\":\"b.txt\"}").complete(gate(Json.parse("{\"path\":\"b.txt\"}")));
    assertTrue(vm.canApproveProperty().get());
    assertTrue(item.inWords().startsWith("Overwrite /w/b.txt"), item.inWords());
    assertEquals(List.of("/w/b.txt"), item.scopes());
    vm.alwaysAllow();
    assertEquals(
        List.of("/w"),
        answer.join().get(0).grantFolders(),
        "the grant covers what the dialog showed for the approved arguments");
  }

  @Test
  void anEditThatMakesTheCallHighRiskMakesTheDialogCarefulAndNeverTheOtherWay() throws Exception {
    // The gate judges the risk per call: here, asking for the network makes it high.
    ApprovalViewModel vm = new ApprovalViewModel(
        new Approver.Request(
            "t", List.of(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\"}")), now.plusSeconds(120)),
        answer,
        clock,
        (tool, args) -> {
          Preflight.Result r = gate(args);
          Risk risk = args.path("network").asBoolean(false) ? Risk.HIGH : Risk.LOW;
          return CompletableFuture.completedFuture(new Preflight.Result(
              r.decision(),
              r.reason(),
              risk,
              r.destructive(),
              r.code(),
              r.field(),
              r.taint(),
              r.paths(),
              r.preview(),
              r.grantFolders()));
        },
        Runnable::run,
        Arrival.FIRST);
    vm.arm();
    ApprovalItem item = vm.items().get(0);
    assertFalse(vm.focusDenyFirst());
    assertEquals(Risk.MEDIUM, item.risk(), "a lower verdict does not lower what was asked");
    assertTrue(vm.canAlwaysAllowProperty().get());
    item.argsTextProperty().set("{\"path\": \"a.txt\", \"network\": true}");
    assertTrue(vm.focusDenyFirst(), "Enter now denies and Approve takes Ctrl+Enter");
    assertTrue(vm.highRiskProperty().get());
    assertEquals(Risk.HIGH, item.risk());
    assertFalse(item.alwaysAllowOffered(), "no standing grant for a high-risk call");
    assertFalse(vm.canAlwaysAllowProperty().get());
  }

  @Test
  void anOverwriteWithTheSameTextSaysNoChange() throws Exception {
    ApprovalViewModel vm =
        model(pending("c1", Risk.MEDIUM, "{\"path\":\"a.txt\",\"content\":\"old\"}"));
    assertEquals(ApprovalItem.NO_CHANGE, vm.items().get(0).diff());
  }
}
