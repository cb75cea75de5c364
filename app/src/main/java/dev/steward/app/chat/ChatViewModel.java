package dev.steward.app.chat;

import dev.steward.app.agent.CallUpdate;
import dev.steward.app.agent.Conversation;
import dev.steward.app.agent.ModelCatalog;
import dev.steward.app.agent.ProposedCall;
import dev.steward.app.agent.TurnListener;
import dev.steward.protocol.service.ServiceState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * The chat's state: the conversation's entries, the input box, whether a turn is running, the
 * banner and the service's state. It never touches controls; every change happens on the UI
 * executor, so the view can bind to it directly.
 */
public final class ChatViewModel {

  private final Executor ui;
  private final ObservableList<ChatEntry> entries = FXCollections.observableArrayList();
  private final StringProperty input = new SimpleStringProperty("");
  private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(false);
  /** Waiting for the model's first word: from the send (or a new step) to its first token or card. */
  private final ReadOnlyBooleanWrapper thinking = new ReadOnlyBooleanWrapper(false);

  private final ReadOnlyStringWrapper banner = new ReadOnlyStringWrapper("");
  private Runnable retryModel = () -> {};
  private Runnable openSettings = () -> {};
  private final ReadOnlyStringWrapper modelName = new ReadOnlyStringWrapper("");
  private final ReadOnlyObjectWrapper<ServiceState> service =
      new ReadOnlyObjectWrapper<>(ServiceState.STARTING);
  private final ObjectProperty<@Nullable Conversation> conversation = new SimpleObjectProperty<>();
  private final Map<String, CallCard> cards = new HashMap<>();
  /** The models the header's picker offers, as the server last said. */
  private final ObservableList<ModelCatalog.Offered> offeredModels =
      FXCollections.observableArrayList();

  private final ReadOnlyStringWrapper modelsProblem = new ReadOnlyStringWrapper("");
  private ModelChoices modelChoices = ModelChoices.NONE;

  /** The model-failure message the next Retry answers, while it is the last word. */
  private final ReadOnlyObjectWrapper<@Nullable MessageEntry> retryable =
      new ReadOnlyObjectWrapper<>();

  private final List<Runnable> turnFinished = new java.util.concurrent.CopyOnWriteArrayList<>();
  private java.util.function.Consumer<String> auditLink = text -> {};
  private final BooleanBinding canSend;

  /** @param ui runs a change on the UI thread ({@code Platform::runLater}; direct in tests) */
  public ChatViewModel(Executor ui) {
    this.ui = ui;
    this.canSend = Bindings.createBooleanBinding(
        () -> !busy.get() && conversation.get() != null && !input.get().isBlank(),
        busy,
        conversation,
        input);
    // A new text is looked for from the top.
    findText.addListener((o, was, now) -> {
      found.set(-1);
      findNext();
    });
  }

  /** Where a card's "Show in audit log" goes: the audit panel, filtered by the text given. */
  public void setAuditLink(java.util.function.Consumer<String> link) {
    this.auditLink = link;
  }

  /** Shows the audit rows of one call (its id is in both of them). */
  public void showInAudit(CallCard card) {
    auditLink.accept(card.callId());
  }

  /** Called after each turn (on the UI thread), e.g. to save the conversation. */
  public void onTurnFinished(Runnable listener) {
    turnFinished.add(listener);
  }

  /** Replaces the conversation on screen (switching conversations, or a saved one at start). */
  public void show(List<ChatEntry> restored) {
    cards.clear();
    restored.forEach(e -> {
      if (e instanceof CallCard c) cards.put(c.callId(), c);
    });
    entries.setAll(restored);
    retryable.set(null);
    // Another conversation: what the find bar pointed at is gone; it looks again from the top.
    found.set(-1);
    if (findOpen.get()) findNext();
  }

  /** Connects the chat to the agent once the service answers. */
  public void attach(Conversation agent) {
    conversation.set(agent);
  }

  /** Sends what is in the input box; answers false when nothing was sent. */
  public boolean send() {
    Conversation agent = conversation.get();
    String text = input.get().strip();
    if (agent == null || busy.get() || text.isEmpty()) return false;
    entries.add(new MessageEntry(MessageEntry.Kind.USER, text));
    input.set("");
    retryable.set(null);
    busy.set(true);
    agent.send(text, new Listener());
    return true;
  }

  /** Asks the user again for a call whose approval expired; answers false when it cannot now. */
  public boolean askAgain(CallCard card) {
    Conversation agent = conversation.get();
    if (agent == null || busy.get()) return false;
    java.util.Optional<dev.steward.app.agent.ProposedCall> call = card.takeForAskingAgain();
    if (call.isEmpty()) return false;
    retryable.set(null);
    busy.set(true);
    agent.askAgain(call.get(), new Listener());
    return true;
  }

  /** Where the header's model picker asks for the server's models and sends the choice. */
  public interface ModelChoices {
    ModelChoices NONE = new ModelChoices() {
      @Override
      public void list(BiConsumer<List<ModelCatalog.Offered>, String> answer) {
        answer.accept(List.of(), "No model server is set up");
      }

      @Override
      public boolean use(String name) {
        return false;
      }
    };

    /** Asks the saved server for its models; answers on the UI thread (none, and why). */
    void list(BiConsumer<List<ModelCatalog.Offered>, String> answer);

    /** Uses this model from the next message; false when it could not be saved. */
    boolean use(String name);
  }

  public void setModelChoices(ModelChoices choices) {
    this.modelChoices = choices;
  }

  /** Asks the server for its models again (the picker opens). */
  public void refreshModels() {
    modelsProblem.set("");
    modelChoices.list((offered, why) -> {
      offeredModels.setAll(offered);
      modelsProblem.set(why);
    });
  }

  /** Whether choosing this model needs a word first: the server says it cannot call tools. */
  public boolean talksOnly(String name) {
    return offeredModels.stream()
        .anyMatch(o -> o.name().equals(name) && o.tools() == ModelCatalog.ToolUse.NO_TOOLS);
  }

  /** Uses this model from the next message. */
  public void useModel(String name) {
    if (modelChoices.use(name)) modelName.set(name);
  }

  public ObservableList<ModelCatalog.Offered> offeredModels() {
    return offeredModels;
  }

  public ReadOnlyStringProperty modelsProblemProperty() {
    return modelsProblem.getReadOnlyProperty();
  }

  /** Asks the model again after it failed to answer; answers false when there is nothing to. */
  public boolean retry() {
    Conversation agent = conversation.get();
    if (agent == null || busy.get() || retryable.get() == null) return false;
    retryable.set(null);
    busy.set(true);
    agent.retry(new Listener());
    return true;
  }

  /** The failure a Retry would answer (shown with a Retry button), or null. */
  public ReadOnlyObjectProperty<@Nullable MessageEntry> retryableProperty() {
    return retryable.getReadOnlyProperty();
  }

  public void stop() {
    Conversation agent = conversation.get();
    if (agent != null && busy.get()) agent.stop();
  }

  public void showBanner(String text) {
    ui.execute(() -> banner.set(text));
  }

  public void setModelName(String name) {
    ui.execute(() -> modelName.set(name));
  }

  /** A model is there to chat with (found now, or after the settings changed): the banner goes. */
  public void modelFound(String name) {
    ui.execute(() -> {
      modelName.set(name);
      banner.set("");
    });
  }

  /** What the banner's Retry and Open Settings do (set by the app). */
  public void setBannerActions(Runnable retry, Runnable openSettings) {
    this.retryModel = retry;
    this.openSettings = openSettings;
  }

  public void retryModel() {
    retryModel.run();
  }

  public void openSettings() {
    openSettings.run();
  }

  public void setServiceState(ServiceState state) {
    ui.execute(() -> service.set(state));
  }

  /** A line from Steward itself, e.g. the list of shortcuts. */
  public void showNotice(String text) {
    ui.execute(() -> entries.add(new MessageEntry(MessageEntry.Kind.NOTICE, text)));
  }

  // ---- find in the conversation (Ctrl+F) ----------------------------------------------------

  private final javafx.beans.property.BooleanProperty findOpen =
      new javafx.beans.property.SimpleBooleanProperty(false);
  private final StringProperty findText = new SimpleStringProperty("");
  private final javafx.beans.property.ReadOnlyIntegerWrapper found =
      new javafx.beans.property.ReadOnlyIntegerWrapper(-1);
  private final ReadOnlyStringWrapper findStatus = new ReadOnlyStringWrapper("");

  public void openFind() {
    findOpen.set(true);
  }

  public void closeFind() {
    findOpen.set(false);
    found.set(-1);
    findStatus.set("");
  }

  /** The entries holding {@code text}, ignoring case, in the order they were said. */
  List<Integer> findMatches(String text) {
    String needle = text.strip().toLowerCase(java.util.Locale.ROOT);
    List<Integer> out = new java.util.ArrayList<>();
    if (needle.isEmpty()) return out;
    for (int i = 0; i < entries.size(); i++) {
      String said = entries.get(i) instanceof MessageEntry m
          ? m.text()
          : entries.get(i) instanceof CallCard c
              ? String.join(
                  "\n",
                  c.tool(),
                  c.summaryProperty().get(),
                  c.detailProperty().get(),
                  c.resultProperty().get())
              : "";
      if (said.toLowerCase(java.util.Locale.ROOT).contains(needle)) out.add(i);
    }
    return out;
  }

  /** The next entry holding the text (round to the first after the last). */
  public void findNext() {
    step(1);
  }

  public void findPrevious() {
    step(-1);
  }

  private void step(int direction) {
    List<Integer> matches = findMatches(findText.get());
    if (matches.isEmpty()) {
      found.set(-1);
      findStatus.set(findText.get().isBlank() ? "" : "No match");
      return;
    }
    int at = matches.indexOf(found.get());
    int next = at < 0
        ? (direction > 0 ? 0 : matches.size() - 1)
        : Math.floorMod(at + direction, matches.size());
    found.set(matches.get(next));
    findStatus.set((next + 1) + " of " + matches.size());
  }

  public javafx.beans.property.BooleanProperty findOpenProperty() {
    return findOpen;
  }

  public StringProperty findTextProperty() {
    return findText;
  }

  /** The entry the find bar points at, -1 for none. */
  public javafx.beans.property.ReadOnlyIntegerProperty foundProperty() {
    return found.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty findStatusProperty() {
    return findStatus.getReadOnlyProperty();
  }

  /** Up in an empty input: the last message the user sent, to edit and send again. */
  public void recallLastMessage() {
    if (!input.get().isEmpty()) return;
    for (int i = entries.size() - 1; i >= 0; i--) {
      if (entries.get(i) instanceof MessageEntry m && m.kind() == MessageEntry.Kind.USER) {
        input.set(m.text());
        return;
      }
    }
  }

  public void showError(String text) {
    ui.execute(() -> entries.add(new MessageEntry(MessageEntry.Kind.ERROR, text)));
  }

  /** The turn's events, moved to the UI thread; tokens are coalesced so a fast stream is one update per pulse. */
  private final class Listener implements TurnListener {
    private final StringBuilder pendingTokens = new StringBuilder();
    private @Nullable MessageEntry current;
    /** The turn's latest assistant message, kept past its end for {@link #assistantRewritten}. */
    private @Nullable MessageEntry latest;

    @Override
    public void modelReady(String name) {
      // The model server may have come up after the window opened: the banner no longer applies.
      ui.execute(() -> {
        modelName.set(name);
        banner.set("");
      });
    }

    @Override
    public void assistantStarted() {
      ui.execute(() -> {
        current = null;
        latest = null;
        thinking.set(true);
      });
    }

    @Override
    public void assistantToken(String text) {
      boolean schedule;
      synchronized (pendingTokens) {
        schedule = pendingTokens.length() == 0;
        pendingTokens.append(text);
      }
      if (schedule) ui.execute(this::flushTokens);
    }

    private void flushTokens() {
      String text;
      synchronized (pendingTokens) {
        text = pendingTokens.toString();
        pendingTokens.setLength(0);
      }
      if (text.isEmpty()) return;
      thinking.set(false);
      if (current == null) {
        current = new MessageEntry(MessageEntry.Kind.ASSISTANT, "");
        latest = current;
        entries.add(current);
      }
      current.append(text);
    }

    @Override
    public void assistantFinished() {
      ui.execute(() -> {
        flushTokens();
        current = null;
        thinking.set(false);
      });
    }

    @Override
    public void assistantRewritten(String text) {
      ui.execute(() -> {
        flushTokens();
        MessageEntry m = latest;
        if (m == null) return;
        if (text.isBlank()) entries.remove(m);
        else m.replace(text);
        latest = null;
      });
    }

    @Override
    public void callProposed(ProposedCall call) {
      ui.execute(() -> {
        CallCard card = new CallCard(call);
        cards.put(call.callId(), card);
        entries.add(card);
      });
    }

    @Override
    public void callUpdated(CallUpdate update) {
      ui.execute(() -> {
        CallCard card = cards.get(update.callId());
        if (card != null) card.apply(update);
      });
    }

    @Override
    public void notice(String text) {
      ui.execute(() -> entries.add(new MessageEntry(MessageEntry.Kind.NOTICE, text)));
    }

    @Override
    public void error(String text) {
      ui.execute(() -> entries.add(new MessageEntry(MessageEntry.Kind.ERROR, text)));
    }

    @Override
    public void modelFailed(String text) {
      ui.execute(() -> {
        MessageEntry failure = new MessageEntry(MessageEntry.Kind.ERROR, text);
        entries.add(failure);
        retryable.set(failure);
      });
    }

    @Override
    public void turnFinished() {
      ui.execute(() -> {
        busy.set(false);
        thinking.set(false);
        turnFinished.forEach(Runnable::run);
      });
    }
  }

  public ReadOnlyBooleanProperty thinkingProperty() {
    return thinking.getReadOnlyProperty();
  }

  public ObservableList<ChatEntry> entries() {
    return entries;
  }

  public StringProperty inputProperty() {
    return input;
  }

  public ReadOnlyBooleanProperty busyProperty() {
    return busy.getReadOnlyProperty();
  }

  public BooleanBinding canSendProperty() {
    return canSend;
  }

  public ReadOnlyStringProperty bannerProperty() {
    return banner.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty modelNameProperty() {
    return modelName.getReadOnlyProperty();
  }

  public ReadOnlyObjectProperty<ServiceState> serviceProperty() {
    return service.getReadOnlyProperty();
  }

  /** Whether the chat is connected to an agent (the service answered). */
  public boolean attached() {
    return conversation.get() != null;
  }

  public @Nullable CallCard card(String callId) {
    return cards.get(callId);
  }
}
