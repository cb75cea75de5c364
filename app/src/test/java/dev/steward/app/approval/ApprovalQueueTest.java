package dev.steward.app.approval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ApprovalQueueTest {

  private Instant now = Instant.parse("2026-11-29T10:00:00Z");
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

  /** A deadline's timer as the queue set it. */
  private final class Timer {
    final Instant at;
    final Runnable action;
    boolean stopped;

    Timer(java.time.Duration delay, Runnable action) {
      this.at = now.plus(delay);
      this.action = action;
    }

    /** The deadline comes. */
    void fire() {
      now = at;
      if (!stopped) action.run();
    }
  }

  /** The dialogs shown, in order, and which of them are open. */
  private final List<ApprovalQueue.Turn> shown = new ArrayList<>();

  private final List<ApprovalQueue.Turn> open = new ArrayList<>();
  private final List<Timer> timers = new ArrayList<>();
  /** Whether the next dialog fails to show. */
  private boolean failToShow;

  private final ApprovalQueue.Shows shows = turn -> {
    if (failToShow) {
      failToShow = false;
      throw new IllegalStateException("no screen");
    }
    shown.add(turn);
    open.add(turn);
    return () -> open.remove(turn);
  };

  private final ApprovalQueue.Timer timer = (delay, action) -> {
    Timer t = new Timer(delay, action);
    timers.add(t);
    return () -> t.stopped = true;
  };

  private final ApprovalQueue queue = new ApprovalQueue(shows, timer, clock, Runnable::run);

  private Approver.Request request(String traceId, String asker) throws Exception {
    ToolDefinition def = new ToolDefinition(
        "files.write_text",
        "w",
        Json.parse("{\"type\":\"object\"}"),
        Json.parse("{}"),
        Risk.MEDIUM,
        Confirmation.ALWAYS,
        List.of());
    return new Approver.Request(
        traceId,
        null,
        List.of(new Approver.Pending(
            new ProposedCall("c-" + traceId, def, Json.parse("{\"path\":\"a.txt\"}")),
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
        now.plusSeconds(120),
        asker);
  }

  private CompletableFuture<List<Approver.Answer>> add(String traceId, String asker)
      throws Exception {
    CompletableFuture<List<Approver.Answer>> answer = new CompletableFuture<>();
    queue.add(request(traceId, asker), answer, behind -> {});
    return answer;
  }

  private static void answer(CompletableFuture<List<Approver.Answer>> answer) {
    answer.complete(List.of());
  }

  private static void withdraw(CompletableFuture<List<Approver.Answer>> answer) {
    answer.completeExceptionally(new CancellationException("withdrawn"));
  }

  @Test
  void aSecondRequestWaitsUntilTheDialogTheUserReadsIsAnswered() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", "The MCP client \u201ca\u201d");
    add("t2", "The MCP client \u201cb\u201d");
    assertEquals(1, open.size(), "one dialog at a time");
    assertEquals("t1", open.get(0).request().traceId());
    answer(first);
    assertEquals(1, open.size(), "the first closed, the second shown");
    assertEquals("t2", open.get(0).request().traceId());
    assertEquals(Arrival.AFTER_ANSWERED, open.get(0).arrival());
  }

  @Test
  void aDialogInThePlaceOfAWithdrawnOneIsToldSo() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", "The MCP client \u201ca\u201d");
    add("t2", "The MCP client \u201ca\u201d");
    withdraw(first);
    assertEquals(List.of("t2"), open.stream().map(t -> t.request().traceId()).toList());
    assertEquals(Arrival.AFTER_WITHDRAWN, open.get(0).arrival());
  }

  @Test
  void aRequestThatComesJustAfterAWithdrawalIsToldSoToo() throws Exception {
    withdraw(add("t1", "The MCP client \u201ca\u201d"));
    assertTrue(open.isEmpty());
    now = now.plusMillis(300);
    add("t2", "The MCP client \u201ca\u201d");
    assertEquals(Arrival.AFTER_WITHDRAWN, open.get(0).arrival(), "the cancel-and-ask-again swap");
    answer(open.get(0).answer());
    now = now.plus(ApprovalQueue.FOLLOWS).plusSeconds(1);
    add("t3", null);
    assertEquals(Arrival.FIRST, open.get(0).arrival(), "long after: a dialog like any other");
  }

  @Test
  void aRequestWithdrawnWhileItWaitsIsNeverShown() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", null);
    CompletableFuture<List<Approver.Answer>> second = add("t2", "The MCP client \u201ca\u201d");
    add("t3", "The MCP client \u201cb\u201d");
    withdraw(second);
    answer(first);
    assertEquals(
        List.of("t1", "t3"), shown.stream().map(t -> t.request().traceId()).toList());
  }

  @Test
  void aRequestWhoseDeadlinePassesWhileItWaitsRunsOut() throws Exception {
    add("t1", null);
    CompletableFuture<List<Approver.Answer>> second = add("t2", "The MCP client \u201ca\u201d");
    timers.get(1).fire();
    assertTrue(second.isDone());
    assertEquals(Approver.Verdict.EXPIRED, second.join().get(0).verdict());
    assertEquals(1, shown.size(), "never shown");
  }

  @Test
  void aShownDialogWhoseDeadlinePassesRunsOutAndTheNextIsShown() throws Exception {
    // The dialog went away unanswered without saying so (its owner hidden): its deadline ends it.
    CompletableFuture<List<Approver.Answer>> first = add("t1", null);
    now = now.plusSeconds(30);
    add("t2", "The MCP client \u201ca\u201d");
    timers.get(0).fire();
    assertEquals(Approver.Verdict.EXPIRED, first.join().get(0).verdict());
    assertEquals(List.of("t2"), open.stream().map(t -> t.request().traceId()).toList());
  }

  @Test
  void aDialogThatCannotBeShownIsDeclinedAndTheNextIsShown() throws Exception {
    failToShow = true;
    CompletableFuture<List<Approver.Answer>> first = add("t1", null);
    assertTrue(first.isDone(), "never left waiting");
    assertEquals(Approver.Verdict.DECLINED, first.join().get(0).verdict());
    add("t2", null);
    assertEquals(List.of("t2"), open.stream().map(t -> t.request().traceId()).toList());
  }

  @Test
  void aRequestThatEndsStopsItsDeadlinesTimer() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", null);
    CompletableFuture<List<Approver.Answer>> second = add("t2", null);
    answer(first);
    withdraw(second);
    assertTrue(timers.get(0).stopped, "answered");
    assertTrue(timers.get(1).stopped, "withdrawn");
  }

  @Test
  void aRequestWithTooLittleTimeLeftWhenItsTurnComesRunsOutUnseen() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", "The MCP client \u201ca\u201d");
    CompletableFuture<List<Approver.Answer>> second = new CompletableFuture<>();
    Approver.Request soon = request("t2", "The MCP client \u201cb\u201d");
    queue.add(
        new Approver.Request(
            soon.traceId(), soon.conversationId(), soon.calls(), now.plusSeconds(20), soon.asker()),
        second,
        behind -> {});
    now = now.plusSeconds(12);
    answer(first);
    assertEquals(Approver.Verdict.EXPIRED, second.join().get(0).verdict());
    assertEquals(List.of("t1"), shown.stream().map(t -> t.request().traceId()).toList());
  }

  @Test
  void theAssistantsRequestCountsItsWindowFromWhenItsDialogIsShown() throws Exception {
    CompletableFuture<List<Approver.Answer>> first = add("t1", "The MCP client \u201ca\u201d");
    Approver.Request own = request("t2", null);
    CompletableFuture<List<Approver.Answer>> second = new CompletableFuture<>();
    queue.add(
        Approver.Request.counting("t2", null, own.calls(), now, java.time.Duration.ofSeconds(60)),
        second,
        behind -> {});
    assertEquals(1, timers.size(), "no deadline runs while it waits");
    now = now.plusSeconds(100);
    answer(first);
    ApprovalQueue.Turn turn = open.get(0);
    assertEquals("t2", turn.request().traceId());
    assertEquals(now.plusSeconds(60), turn.request().deadline(), "a whole window to read it");
    assertEquals(2, timers.size());
    timers.get(1).fire();
    assertEquals(Approver.Verdict.EXPIRED, second.join().get(0).verdict());
  }

  @Test
  void aRequestWaitingBehindAnotherDialogIsToldSoAndToldWhenItsOwnIsShown() throws Exception {
    List<Boolean> firstTold = new ArrayList<>();
    List<Boolean> secondTold = new ArrayList<>();
    CompletableFuture<List<Approver.Answer>> first = new CompletableFuture<>();
    queue.add(request("t1", "The MCP client \u201ca\u201d"), first, firstTold::add);
    queue.add(request("t2", null), new CompletableFuture<>(), secondTold::add);
    assertEquals(List.of(), firstTold, "shown at once: nothing to say");
    assertEquals(List.of(true), secondTold);
    answer(first);
    assertEquals(List.of(true, false), secondTold);
  }

  @Test
  void answersTakenInLaterAsOnTheUiThreadKeepTheLineInOrder() throws Exception {
    // As Platform.runLater does: what the queue hands the UI thread runs after the answer.
    List<Runnable> later = new ArrayList<>();
    ApprovalQueue q = new ApprovalQueue(shows, timer, clock, later::add);
    CompletableFuture<List<Approver.Answer>> first = new CompletableFuture<>();
    CompletableFuture<List<Approver.Answer>> second = new CompletableFuture<>();
    CompletableFuture<List<Approver.Answer>> third = new CompletableFuture<>();
    failToShow = false;
    q.add(request("t1", null), first, behind -> {});
    q.add(request("t2", "The MCP client \u201ca\u201d"), second, behind -> {});
    q.add(request("t3", "The MCP client \u201cb\u201d"), third, behind -> {});
    answer(first);
    withdraw(second);
    assertEquals(List.of("t1"), open.stream().map(t -> t.request().traceId()).toList());
    while (!later.isEmpty()) later.remove(0).run();
    assertEquals(List.of("t3"), open.stream().map(t -> t.request().traceId()).toList());
    assertEquals(
        List.of("t1", "t3"), shown.stream().map(t -> t.request().traceId()).toList());
    assertEquals(Arrival.AFTER_ANSWERED, open.get(0).arrival());

    failToShow = true;
    answer(third);
    CompletableFuture<List<Approver.Answer>> fourth = new CompletableFuture<>();
    q.add(request("t4", null), fourth, behind -> {});
    while (!later.isEmpty()) later.remove(0).run();
    assertEquals(Approver.Verdict.DECLINED, fourth.join().get(0).verdict(), "could not be shown");
    CompletableFuture<List<Approver.Answer>> fifth = new CompletableFuture<>();
    q.add(request("t5", null), fifth, behind -> {});
    assertEquals(List.of("t5"), open.stream().map(t -> t.request().traceId()).toList());
  }

  @Test
  void theDialogSaysTheRequestBeingReadWasWithdrawnAndWhoAsksThisOne() throws Exception {
    CompletableFuture<List<Approver.Answer>> answer = new CompletableFuture<>();
    Approver.Request request = request("t2", "The MCP client \u201cb\u202e\u201d");
    ApprovalViewModel after = new ApprovalViewModel(
        request,
        answer,
        clock,
        (tool, args) -> new CompletableFuture<>(),
        Runnable::run,
        Arrival.AFTER_WITHDRAWN);
    String notice = after.replacesWithdrawn();
    assertNotNull(notice);
    assertTrue(notice.contains("was withdrawn"), notice);
    assertTrue(
        notice.contains("different request, from The MCP client \u201cb\\u202e\u201d"), notice);
    assertTrue(after.armsSlowly());
    ApprovalViewModel own = new ApprovalViewModel(
        request("t3", null),
        answer,
        clock,
        (tool, args) -> new CompletableFuture<>(),
        Runnable::run,
        Arrival.AFTER_ANSWERED);
    assertNull(own.replacesWithdrawn());
    assertTrue(own.armsSlowly(), "a click aimed at the dialog before may be on its way");
    assertFalse(new ApprovalViewModel(
            request("t4", null),
            answer,
            clock,
            (tool, args) -> new CompletableFuture<>(),
            Runnable::run,
            Arrival.FIRST)
        .armsSlowly());
  }
}
