package dev.steward.app.approval;

import dev.steward.app.agent.Approver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One approval dialog at a time. Every dialog is the same size in the same place, so one opened
 * over another would take the click aimed at the one the user is reading — and a client can
 * withdraw its request and ask again at once, or ask from a second session. So requests (the
 * assistant's own and other clients') wait their turn in the order they came; one answered or
 * withdrawn while it waits just leaves the line, and one whose deadline passes, waiting or shown,
 * runs out as its dialog would have. A dialog shown within {@link #FOLLOWS} of another closing is
 * told so ({@link Arrival}). Used on the UI thread only.
 */
final class ApprovalQueue {

  /** The least time a dialog is shown with: less, and the request runs out unseen. */
  static final Duration SHORTEST = Duration.ofSeconds(10);

  /** How soon after a dialog closes the next one counts as taking its place. */
  static final Duration FOLLOWS = Duration.ofSeconds(3);

  /** A request whose dialog is to be shown now, its answer, and how it arrives. */
  record Turn(
      Approver.Request request, CompletableFuture<List<Approver.Answer>> answer, Arrival arrival) {}

  /** Shows a turn's dialog. */
  interface Shows {
    /** Shows the dialog; returns what closes it. */
    Runnable show(Turn turn);
  }

  /** Runs an action on the UI thread once a delay has passed. */
  interface Timer {
    /** Starts the wait; returns what stops it (the action then never runs). */
    Runnable after(Duration delay, Runnable action);
  }

  /**
   * A request in line or shown, who is told while it waits behind another's dialog, and what stops
   * its deadline's timer.
   */
  private static final class Waiting {
    final Approver.Request request;
    final CompletableFuture<List<Approver.Answer>> answer;
    final Consumer<Boolean> behindAnother;
    boolean toldBehind;
    Runnable stopTimer = () -> {};

    Waiting(
        Approver.Request request,
        CompletableFuture<List<Approver.Answer>> answer,
        Consumer<Boolean> behindAnother) {
      this.request = request;
      this.answer = answer;
      this.behindAnother = behindAnother;
    }
  }

  private static final Logger LOG = Logger.getLogger(ApprovalQueue.class.getName());

  private final Shows shows;
  private final Timer timer;
  private final Clock clock;
  private final Executor ui;
  private final Deque<Waiting> waiting = new ArrayDeque<>();
  private @Nullable Waiting current;
  private Runnable closeCurrent = () -> {};
  private @Nullable Instant lastClosed;
  private boolean lastWithdrawn;

  /** @param ui where answers that come from other threads are taken in (the UI thread) */
  ApprovalQueue(Shows shows, Timer timer, Clock clock, Executor ui) {
    this.shows = shows;
    this.timer = timer;
    this.clock = clock;
    this.ui = ui;
  }

  /**
   * Adds a request; its dialog is shown now if none is, else when its turn comes ({@code
   * behindAnother} is told true meanwhile, and false when it is shown).
   */
  void add(
      Approver.Request request,
      CompletableFuture<List<Approver.Answer>> answer,
      Consumer<Boolean> behindAnother) {
    Waiting w = new Waiting(request, answer, behindAnother);
    waiting.add(w);
    // A request whose window counts from its dialog waits as long as its asker does.
    if (request.window() == null) w.stopTimer = expiresAt(w, request.deadline());
    // Withdrawn: the answer ends unanswered (ClientApprovals cancels it).
    answer.whenComplete((a, e) -> ui.execute(() -> ended(w, e != null)));
    if (current == null) next(arrivalNow());
    if (current != w && !answer.isDone()) {
      w.toldBehind = true;
      behindAnother.accept(true);
    }
  }

  /**
   * Ends the request as expired at {@code deadline}, waiting or shown: a dialog that went away
   * unanswered without saying so must not hold up the line behind it for good.
   */
  private Runnable expiresAt(Waiting w, Instant deadline) {
    return timer.after(
        Duration.between(clock.instant(), deadline),
        () -> w.answer.complete(all(w.request, Approver.Verdict.EXPIRED)));
  }

  /** How a dialog shown now arrives, from when and how the last one closed. */
  private Arrival arrivalNow() {
    Instant closed = lastClosed;
    if (closed == null || clock.instant().isAfter(closed.plus(FOLLOWS))) return Arrival.FIRST;
    return lastWithdrawn ? Arrival.AFTER_WITHDRAWN : Arrival.AFTER_ANSWERED;
  }

  private void ended(Waiting w, boolean withdrawn) {
    w.stopTimer.run();
    if (waiting.remove(w) || w != current) return;
    current = null;
    lastClosed = clock.instant();
    lastWithdrawn = withdrawn;
    Runnable close = closeCurrent;
    closeCurrent = () -> {};
    close.run();
    next(withdrawn ? Arrival.AFTER_WITHDRAWN : Arrival.AFTER_ANSWERED);
  }

  private void next(Arrival arrival) {
    Waiting w;
    Approver.Request shown;
    while (true) {
      w = waiting.poll();
      if (w == null) return;
      // Answered already (Stop before its turn): it leaves when that answer is taken in.
      if (w.answer.isDone()) continue;
      shown = w.request.shownAt(clock.instant());
      // Too little time left to read it (arming alone takes up to a second and a half).
      if (w.request.window() == null
          && Duration.between(clock.instant(), shown.deadline()).compareTo(SHORTEST) < 0) {
        w.answer.complete(all(w.request, Approver.Verdict.EXPIRED));
        continue;
      }
      break;
    }
    current = w;
    if (w.request.window() != null) w.stopTimer = expiresAt(w, shown.deadline());
    if (w.toldBehind) w.behindAnother.accept(false);
    try {
      closeCurrent = shows.show(new Turn(shown, w.answer, arrival));
    } catch (RuntimeException e) {
      // A dialog that cannot be shown cannot be approved: no, and the next one's turn.
      LOG.log(Level.WARNING, "the approval dialog could not be shown", e);
      w.answer.complete(all(w.request, Approver.Verdict.DECLINED));
    }
  }

  private static List<Approver.Answer> all(Approver.Request request, Approver.Verdict verdict) {
    return request.calls().stream()
        .map(p -> new Approver.Answer(p.call().callId(), verdict, p.call().args(), false))
        .toList();
  }
}
