package dev.steward.app.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.agent.CallState;
import dev.steward.app.agent.CallUpdate;
import dev.steward.app.agent.ProposedCall;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.util.Counted;
import java.util.Iterator;
import java.util.Map;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.jspecify.annotations.Nullable;

/**
 * A proposed tool call as the chat shows it (SPEC §8): tool, short argument summary, risk, state,
 * and, when expanded, the arguments (as they ran) and the result.
 */
public final class CallCard implements ChatEntry {

  private static final int SUMMARY_LIMIT = 80;

  private final String callId;
  private final String tool;
  private final Risk risk;
  private final ReadOnlyStringWrapper summary;
  private final ReadOnlyStringWrapper arguments;
  private final ReadOnlyObjectWrapper<CallState> state =
      new ReadOnlyObjectWrapper<>(CallState.CHECKING);
  private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper result = new ReadOnlyStringWrapper("");
  /** The call as the model proposed it, to ask again for; none for a card from a saved conversation. */
  private final @Nullable ProposedCall call;

  private final javafx.beans.property.ReadOnlyBooleanWrapper askedAgain =
      new javafx.beans.property.ReadOnlyBooleanWrapper(false);

  public CallCard(ProposedCall call) {
    this.call = call;
    this.callId = call.callId();
    this.tool = call.toolName();
    this.risk = call.tool().risk();
    this.summary = new ReadOnlyStringWrapper(summarise(call.args()));
    this.arguments = new ReadOnlyStringWrapper(Json.pretty(call.args()));
  }

  /** A card from a saved conversation, as it last was. */
  public CallCard(
      String callId,
      String tool,
      Risk risk,
      String summary,
      String arguments,
      CallState state,
      String detail,
      String result) {
    this.call = null;
    this.callId = callId;
    this.tool = tool;
    this.risk = risk;
    this.summary = new ReadOnlyStringWrapper(summary);
    this.arguments = new ReadOnlyStringWrapper(arguments);
    this.state.set(state);
    this.detail.set(detail);
    this.result.set(result);
  }

  void apply(CallUpdate update) {
    detail.set(update.detail());
    if (update.ranArgs() != null) {
      arguments.set(Json.pretty(update.ranArgs()));
      summary.set(summarise(update.ranArgs()) + " (edited)");
    }
    if (update.result() != null) result.set(update.result());
    state.set(update.state()); // last: whoever sees the new state sees its detail and result too
  }

  /** "path: ~/Steward/a.txt, text: 12 chars" — enough to recognise the call at a glance. */
  static String summarise(JsonNode args) {
    StringBuilder s = new StringBuilder();
    Iterator<Map.Entry<String, JsonNode>> fields = args.fields();
    while (fields.hasNext() && s.length() < SUMMARY_LIMIT) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (s.length() > 0) s.append(", ");
      JsonNode v = f.getValue();
      String shown;
      if (v.isTextual()) {
        String t = v.asText();
        shown = t.length() > 40 || t.contains("\n") ? Counted.of(t.length(), "char", "chars") : t;
      } else {
        shown = v.isContainerNode() ? Counted.of(v.size(), "item", "items") : v.toString();
      }
      s.append(f.getKey()).append(": ").append(shown);
    }
    return s.length() > SUMMARY_LIMIT ? s.substring(0, SUMMARY_LIMIT - 1) + "…" : s.toString();
  }

  public String callId() {
    return callId;
  }

  public String tool() {
    return tool;
  }

  public Risk risk() {
    return risk;
  }

  public ReadOnlyStringProperty summaryProperty() {
    return summary.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty argumentsProperty() {
    return arguments.getReadOnlyProperty();
  }

  public ReadOnlyObjectProperty<CallState> stateProperty() {
    return state.getReadOnlyProperty();
  }

  public CallState state() {
    return state.get();
  }

  public ReadOnlyStringProperty detailProperty() {
    return detail.getReadOnlyProperty();
  }

  public String detail() {
    return detail.get();
  }

  /** How much of a result the card shows before "Show all": a long listing stays quick to open. */
  static final int SHOWN_CHARS = 20_000;

  private final javafx.beans.property.BooleanProperty showAll =
      new javafx.beans.property.SimpleBooleanProperty(false);

  private final javafx.beans.binding.StringBinding shownResult =
      javafx.beans.binding.Bindings.createStringBinding(
          () -> showAll.get() || result.get().length() <= SHOWN_CHARS
              ? result.get()
              : result.get().substring(0, SHOWN_CHARS) + "\n…",
          result,
          showAll);

  private final javafx.beans.binding.BooleanBinding cut =
      javafx.beans.binding.Bindings.createBooleanBinding(
          () -> !showAll.get() && result.get().length() > SHOWN_CHARS, result, showAll);

  /** The result as the card shows it: the first {@link #SHOWN_CHARS} characters until "Show all". */
  public javafx.beans.binding.StringBinding shownResultProperty() {
    return shownResult;
  }

  /** Whether the card shows only the start of a long result. */
  public javafx.beans.binding.BooleanBinding cutProperty() {
    return cut;
  }

  public void showAll() {
    showAll.set(true);
  }

  public ReadOnlyStringProperty resultProperty() {
    return result.getReadOnlyProperty();
  }

  /** Whether "Ask again" is offered: the approval expired, and it has not been asked again yet. */
  public javafx.beans.binding.BooleanBinding askAgainOfferedProperty() {
    return javafx.beans.binding.Bindings.createBooleanBinding(
        () -> call != null && state.get() == CallState.EXPIRED && !askedAgain.get(),
        state,
        askedAgain);
  }

  /** The call to ask again for, once; empty when it is not offered. */
  java.util.Optional<ProposedCall> takeForAskingAgain() {
    if (call == null || state.get() != CallState.EXPIRED || askedAgain.get())
      return java.util.Optional.empty();
    askedAgain.set(true);
    return java.util.Optional.of(call);
  }
}
