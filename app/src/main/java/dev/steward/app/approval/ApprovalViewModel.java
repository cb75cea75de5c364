package dev.steward.app.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.Approver;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.ShownText;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The confirmation dialog's logic (SPEC §8, seed 004): the calls of one turn that need a click,
 * each ticked by default with editable arguments checked live by the gate's own preflight, a
 * countdown to the approval's deadline, and one answer for all of them.
 */
public final class ApprovalViewModel {

  private final Approver.Request request;
  private final CompletableFuture<List<Approver.Answer>> answer;
  private final Clock clock;
  private final BiFunction<String, JsonNode, CompletableFuture<Preflight.Result>> check;
  private final Executor ui;
  private final Arrival arrival;
  private final ObservableList<ApprovalItem> items = FXCollections.observableArrayList();
  private final ReadOnlyLongWrapper secondsLeft = new ReadOnlyLongWrapper();
  private final BooleanBinding canApprove;
  private final BooleanBinding canAlwaysAllow;
  private final BooleanBinding highRisk;
  private final javafx.beans.property.ObjectProperty<GrantSpan> grantSpan =
      new javafx.beans.property.SimpleObjectProperty<>(GrantSpan.UNTIL_REVOKED);
  private final javafx.beans.property.ReadOnlyBooleanWrapper answered =
      new javafx.beans.property.ReadOnlyBooleanWrapper(false);
  private final javafx.beans.property.ReadOnlyBooleanWrapper armed =
      new javafx.beans.property.ReadOnlyBooleanWrapper(false);

  /**
   * @param check the gate's preflight for (tool, edited arguments): the one place the rules live
   * @param ui where results of {@code check} are applied (the UI thread)
   * @param arrival whether the dialog takes the place of one that has just closed, and how
   */
  public ApprovalViewModel(
      Approver.Request request,
      CompletableFuture<List<Approver.Answer>> answer,
      Clock clock,
      BiFunction<String, JsonNode, CompletableFuture<Preflight.Result>> check,
      Executor ui,
      Arrival arrival) {
    this.arrival = arrival;
    this.request = request;
    this.answer = answer;
    this.clock = clock;
    this.check = check;
    this.ui = ui;
    List<Observable> deps = new ArrayList<>();
    deps.add(answered);
    deps.add(armed);
    // An answer can also come from elsewhere (Stop); the dialog then stops offering Approve.
    answer.whenComplete((a, e) -> ui.execute(() -> answered.set(true)));
    for (Approver.Pending p : request.calls()) {
      ApprovalItem item = new ApprovalItem(p);
      item.argsTextProperty().addListener((o, was, now) -> validate(item));
      items.add(item);
      deps.add(item.tickedProperty());
      deps.add(item.problemProperty());
      deps.add(item.currentProperty());
    }
    this.canApprove = Bindings.createBooleanBinding(
        () -> armed.get()
            && !answered.get()
            && items.stream().anyMatch(i -> i.tickedProperty().get())
            && items.stream()
                .filter(i -> i.tickedProperty().get())
                .allMatch(i ->
                    i.problemProperty().get().isEmpty() && i.currentProperty().get()),
        deps.toArray(Observable[]::new));
    // "Always allow here" is a standing grant: offered only when every ticked call may have one.
    this.canAlwaysAllow = Bindings.createBooleanBinding(
        // Not for another client's call: a standing grant is the window's assistant's alone.
        () -> canApprove.get()
            && request.asker() == null
            && items.stream()
                .filter(i -> i.tickedProperty().get())
                .allMatch(ApprovalItem::alwaysAllowOffered),
        canApprove);
    this.highRisk = Bindings.createBooleanBinding(
        () -> items.stream().anyMatch(i -> i.risk() == Risk.HIGH),
        items.stream().map(ApprovalItem::riskProperty).toArray(Observable[]::new));
    // What the dialog shows comes from the window's own preview of the arguments in the editor.
    items.forEach(this::validate);
    tick();
  }

  /**
   * Re-checks the arguments in the editor: JSON first, then the gate's preflight of exactly them,
   * whose preview (headline, folders, diff) the dialog then shows.
   */
  private void validate(ApprovalItem item) {
    JsonNode args = item.parsedArgs();
    if (args == null) {
      item.setProblem("Not a JSON object: fix the arguments or untick this call.");
      return;
    }
    String text = item.argsTextProperty().get();
    item.setProblem("Checking…");
    check
        .apply(item.tool(), args)
        .whenComplete((result, error) -> ui.execute(() -> {
          if (!text.equals(item.argsTextProperty().get())) return; // a newer edit is being checked
          if (error != null) {
            item.setProblem("Could not check the arguments: "
                + ShownText.escaped(String.valueOf(error.getMessage())));
            return;
          }
          item.show(text, result);
          if (Preflight.DENY.equals(result.decision())) {
            String where = result.field() == null || result.field().isEmpty()
                ? ""
                : " (at " + result.field() + ")";
            // The gate's words quote the arguments, which the model wrote: one line, as they are.
            item.setProblem(ShownText.escaped((ToolErrorCodes.VALIDATION_ERROR.equals(result.code())
                    ? "Invalid: "
                    : "Not allowed: ")
                + result.reason()
                + where));
          } else {
            item.setProblem("");
          }
        }));
  }

  /**
   * Lets Approve work. The dialog arms itself a moment after it appears, so that a key already on
   * its way (the Enter that sent the message) or a click aimed at what was there before cannot
   * approve a dialog the user has not seen.
   */
  public void arm() {
    armed.set(true);
  }

  /** Updates the countdown; at zero the approval ends as expired. Call about once a second. */
  public void tick() {
    long left =
        Math.max(0, Duration.between(clock.instant(), request.deadline()).toMillis() + 999) / 1000;
    secondsLeft.set(left);
    if (left == 0) expire();
  }

  /** Approve once: a token for exactly the ticked calls, as edited. */
  public void approve() {
    approve(false);
  }

  /** Approve, and let the same tools run in the same folders from now on without asking. */
  public void alwaysAllow() {
    if (canAlwaysAllow.get()) approve(true);
  }

  private void approve(boolean always) {
    if (!canApprove.get()) return;
    List<Approver.Answer> answers = new ArrayList<>();
    for (ApprovalItem i : items) {
      String id = i.pending().call().callId();
      if (i.tickedProperty().get()) {
        // Approve is on only while every ticked call's arguments parse and the preview shown is
        // of exactly them (canApprove): its paths are what the user saw, and the token binds them.
        answers.add(new Approver.Answer(
            id,
            Approver.Verdict.APPROVED,
            java.util.Objects.requireNonNull(i.parsedArgs()),
            always,
            always ? i.grantFolders() : List.of(),
            always ? span().until(clock.instant()) : null,
            i.shownProperty().get().paths(),
            i.shownProperty().get().fingerprints(),
            request.deadline()));
      } else {
        answers.add(new Approver.Answer(
            id, Approver.Verdict.DECLINED, i.pending().call().args(), false));
      }
    }
    finish(answers);
  }

  private void finish(List<Approver.Answer> answers) {
    answered.set(true);
    answer.complete(answers);
  }

  public void deny() {
    finish(all(Approver.Verdict.DECLINED));
  }

  public void expire() {
    if (!answered.get()) finish(all(Approver.Verdict.EXPIRED));
  }

  private List<Approver.Answer> all(Approver.Verdict verdict) {
    return items.stream()
        .map(i -> new Approver.Answer(
            i.pending().call().callId(), verdict, i.pending().call().args(), false))
        .toList();
  }

  /**
   * Whether anything in the dialog is high risk now: focus starts on Deny, Enter denies, and only
   * Ctrl+Enter approves.
   */
  public boolean focusDenyFirst() {
    return highRisk.get();
  }

  public BooleanBinding highRiskProperty() {
    return highRisk;
  }

  public boolean answered() {
    return answered.get();
  }

  public CompletableFuture<List<Approver.Answer>> answer() {
    return answer;
  }

  public ObservableList<ApprovalItem> items() {
    return items;
  }

  public ReadOnlyLongProperty secondsLeftProperty() {
    return secondsLeft.getReadOnlyProperty();
  }

  public BooleanBinding canApproveProperty() {
    return canApprove;
  }

  public BooleanBinding canAlwaysAllowProperty() {
    return canAlwaysAllow;
  }

  /** How long "Always allow here" lasts; until revoked unless the user picks a time. */
  public javafx.beans.property.ObjectProperty<GrantSpan> grantSpanProperty() {
    return grantSpan;
  }

  private GrantSpan span() {
    GrantSpan s = grantSpan.get();
    return s == null ? GrantSpan.UNTIL_REVOKED : s;
  }

  /** What "Always allow here" would allow, in words: the tools, the folders, and for how long. */
  public String alwaysAllowCovers() {
    List<String> parts = new ArrayList<>();
    for (ApprovalItem i : items) {
      if (i.tickedProperty().get() && i.alwaysAllowOffered())
        // The folders come from the model's path: written out, so none can reverse the line.
        parts.add(ShownText.escaped(i.tool() + " in " + String.join(", ", i.grantFolders())));
    }
    return parts.isEmpty()
        ? ""
        : "Always allow: " + String.join("; ", parts) + " — from now on, "
            + (span() == GrantSpan.UNTIL_REVOKED
                ? "until you revoke it in Settings."
                : span() + " (you can revoke it in Settings sooner).");
  }

  /** The client that asks when it is not the window's own assistant; null for the assistant. */
  public @org.jspecify.annotations.Nullable String asker() {
    String asker = request.asker();
    return asker == null ? null : ShownText.escaped(asker);
  }

  /**
   * Whether Approve waits the longer while before it works: for another client's call, which comes
   * unprompted while the user may be typing, and for a dialog in the place of one that has just
   * closed, where a click or key aimed at that one would land.
   */
  public boolean armsSlowly() {
    return request.asker() != null || arrival.followsAnother();
  }

  /**
   * When the dialog takes the place of one withdrawn unanswered, that this is another request and
   * who asks it; else null.
   */
  public @org.jspecify.annotations.Nullable String replacesWithdrawn() {
    if (arrival != Arrival.AFTER_WITHDRAWN) return null;
    String asker = asker();
    return "The request you were reading was withdrawn: nothing was approved. This is a different"
        + " request, from " + (asker == null ? "Steward's own assistant" : asker)
        + ". Read it before you answer.";
  }

  /** What changed since the calls were first shown, when they are shown again; else null. */
  public @org.jspecify.annotations.Nullable String shownAgain() {
    return request.shownAgain();
  }

  /** The dialog's title; a request from another client says which one asks. */
  public String title() {
    int n = items.size();
    String asker = asker();
    String who = asker == null ? "Steward asks before it acts" : asker + " asks Steward to act";
    return n == 1 ? who : who + " — " + n + " actions";
  }
}
