package dev.steward.app.history;

import dev.steward.app.agent.CallState;
import dev.steward.app.agent.Exchange;
import dev.steward.app.chat.CallCard;
import dev.steward.app.chat.ChatEntry;
import dev.steward.app.chat.ChatViewModel;
import dev.steward.app.chat.MessageEntry;
import dev.steward.protocol.tool.Risk;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * The list of conversations beside the chat: new, open, delete; the open one is saved after each
 * turn. Opening a conversation puts its messages back on screen and gives the model its context.
 */
public final class HistoryViewModel {

  private static final int TITLE_LENGTH = 60;

  private final HistoryStore store;
  private final ChatViewModel chat;
  private final Executor background;
  private final Executor ui;
  private final ObservableList<Conversation> conversations = FXCollections.observableArrayList();
  private final javafx.collections.transformation.FilteredList<Conversation> shown =
      new javafx.collections.transformation.FilteredList<>(conversations);
  private final javafx.beans.property.StringProperty searchText =
      new javafx.beans.property.SimpleStringProperty("");
  private final ObjectProperty<@Nullable Deleted> deleted = new SimpleObjectProperty<>();
  private final ObjectProperty<@Nullable Conversation> current = new SimpleObjectProperty<>();
  private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
  private BiConsumer<String, List<Exchange>> modelContext = (id, e) -> {};
  private Consumer<String> auditLink = text -> {};
  private List<Exchange> lastContext = List.of();

  public HistoryViewModel(
      HistoryStore store, ChatViewModel chat, Executor background, Executor ui) {
    this.store = store;
    this.chat = chat;
    this.background = background;
    this.ui = ui;
    chat.onTurnFinished(this::saveCurrent);
    searchText.addListener((o, was, now) -> search(now));
  }

  /** A deleted conversation, kept in memory for its Undo. */
  public record Deleted(Conversation conversation, List<StoredEntry> entries, int index) {}

  /** Where an opened conversation's messages go for the model (the agent, once it exists). */
  public void setModelContext(BiConsumer<String, List<Exchange>> context) {
    this.modelContext = context;
    Conversation open = current.get();
    if (open != null) context.accept(open.id(), lastContext);
  }

  /** Where "Show in audit log" goes: the audit panel, filtered by the text given. */
  public void setAuditLink(Consumer<String> link) {
    this.auditLink = link;
  }

  /** Shows the audit rows of a conversation's calls (their trace ids hold its id). */
  public void showInAudit(Conversation c) {
    auditLink.accept(c.id());
  }

  /** Shows the list and opens the newest conversation (or a new one). */
  public void load() {
    background.execute(() -> {
      try {
        List<Conversation> all = store.list();
        Conversation open = all.isEmpty() ? store.create("New conversation") : all.get(0);
        List<Conversation> listed = all.isEmpty() ? List.of(open) : all;
        List<StoredEntry> entries = store.entries(open.id());
        ui.execute(() -> {
          conversations.setAll(listed);
          show(open, entries);
        });
      } catch (SQLException e) {
        report("Could not read the chat history: " + e.getMessage());
      }
    });
  }

  public void newConversation() {
    if (midTurn()) return;
    background.execute(() -> {
      try {
        Conversation c = store.create("New conversation");
        ui.execute(() -> {
          conversations.add(0, c);
          show(c, List.of());
          searchAgain();
        });
      } catch (SQLException e) {
        report("Could not start a conversation: " + e.getMessage());
      }
    });
  }

  public void open(Conversation c) {
    Conversation open = current.get();
    if (open != null && open.id().equals(c.id())) return;
    if (midTurn()) return;
    background.execute(() -> {
      try {
        List<StoredEntry> entries = store.entries(c.id());
        ui.execute(() -> show(c, entries));
      } catch (SQLException e) {
        report("Could not open the conversation: " + e.getMessage());
      }
    });
  }

  /** Deletes a conversation; {@link #undoDelete} puts it back while it is the last one deleted. */
  public void delete(Conversation c) {
    if (midTurn()) return;
    background.execute(() -> {
      try {
        List<StoredEntry> kept = store.entries(c.id());
        // A second Delete of the same one (a double click) must not replace the Undo's copy.
        if (!store.delete(c.id())) return;
        ui.execute(() -> {
          int at = 0;
          while (at < conversations.size() && !conversations.get(at).id().equals(c.id())) at++;
          if (at < conversations.size()) conversations.remove(at);
          deleted.set(new Deleted(c, kept, at));
          Conversation open = current.get();
          if (open != null && open.id().equals(c.id())) {
            if (conversations.isEmpty()) {
              newConversation();
            } else {
              open(conversations.get(0));
            }
          }
        });
      } catch (SQLException e) {
        report("Could not delete the conversation: " + e.getMessage());
      }
    });
  }

  /** Puts back the conversation deleted last, entries and all, and opens it. */
  public void undoDelete() {
    Deleted d = deleted.get();
    if (d == null) return;
    deleted.set(null);
    background.execute(() -> {
      try {
        store.restore(d.conversation(), d.entries());
        ui.execute(() -> {
          conversations.add(Math.min(d.index(), conversations.size()), d.conversation());
          open(d.conversation());
          searchAgain();
        });
      } catch (SQLException e) {
        report("Could not restore the conversation: " + e.getMessage());
      }
    });
  }

  /** The undo offer has passed. */
  public void forgetDeleted() {
    deleted.set(null);
  }

  /** Gives a conversation the user's own title; later turns keep it. */
  public void rename(Conversation c, String title) {
    String name = title.strip().replaceAll("\\s+", " ");
    if (name.isEmpty() || name.equals(c.title())) return;
    String kept = name.length() <= 200 ? name : name.substring(0, 199) + "…";
    background.execute(() -> {
      try {
        store.rename(c.id(), kept);
        ui.execute(() -> replace(c.id(), x -> new Conversation(x.id(), kept, x.updatedAt(), true)));
      } catch (SQLException e) {
        report("Could not rename the conversation: " + e.getMessage());
      }
    });
  }

  /** Shows only the conversations whose title or messages hold this text (all when empty). */
  private void search(String text) {
    String query = text.strip();
    if (query.isEmpty()) {
      shown.setPredicate(null);
      return;
    }
    background.execute(() -> {
      try {
        java.util.Set<String> ids = store.search(query);
        ui.execute(() -> {
          if (query.equals(searchText.get().strip())) shown.setPredicate(c -> ids.contains(c.id()));
        });
      } catch (SQLException e) {
        report("Could not search the conversations: " + e.getMessage());
      }
    });
  }

  /** A saved, new or restored conversation may now match the search, or no longer. */
  private void searchAgain() {
    if (!searchText.get().isBlank()) search(searchText.get());
  }

  private void replace(String id, java.util.function.UnaryOperator<Conversation> change) {
    for (int i = 0; i < conversations.size(); i++) {
      if (conversations.get(i).id().equals(id))
        conversations.set(i, change.apply(conversations.get(i)));
    }
    Conversation open = current.get();
    if (open != null && open.id().equals(id)) current.set(change.apply(open));
  }

  /**
   * Whether a turn runs now, and the conversation may not change under it: what the turn still
   * says (perhaps a stranger's words from a page it read) would be saved, and later read by the
   * model, under the other conversation — whose taint the service keeps apart.
   */
  private boolean midTurn() {
    if (!chat.busyProperty().get()) return false;
    report("The assistant is still answering: stop it or wait, then change conversations.");
    return true;
  }

  private void show(Conversation c, List<StoredEntry> entries) {
    if (midTurn()) return;
    current.set(c);
    List<ChatEntry> restored = new ArrayList<>();
    List<Exchange> context = new ArrayList<>();
    for (StoredEntry e : entries) {
      restored.add(toChat(e));
      if (e.kind().equals("user")) context.add(new Exchange(true, e.text()));
      if (e.kind().equals("assistant")) context.add(new Exchange(false, e.text()));
    }
    chat.show(restored);
    lastContext = List.copyOf(context);
    modelContext.accept(c.id(), lastContext);
  }

  /** Saves the open conversation as it is on screen (called on the UI thread after a turn). */
  public void saveCurrent() {
    Conversation c = current.get();
    if (c == null) return;
    List<StoredEntry> entries =
        chat.entries().stream().map(HistoryViewModel::toStored).toList();
    // A /command is an instruction to the window, not what the conversation is about.
    String title = entries.stream()
        .filter(e -> e.kind().equals("user"))
        .map(StoredEntry::text)
        .filter(text -> !text.strip().startsWith("/"))
        .findFirst()
        .map(HistoryViewModel::title)
        .orElse(c.title());
    background.execute(() -> {
      try {
        store.save(c.id(), title, entries);
        Instant now = Instant.now();
        ui.execute(() -> {
          replace(
              c.id(),
              x -> new Conversation(x.id(), x.renamed() ? x.title() : title, now, x.renamed()));
          searchAgain();
        });
      } catch (SQLException e) {
        report("Could not save the conversation: " + e.getMessage());
      }
    });
  }

  static String title(String firstMessage) {
    String oneLine = firstMessage.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= TITLE_LENGTH
        ? oneLine
        : oneLine.substring(0, TITLE_LENGTH - 1) + "…";
  }

  static StoredEntry toStored(ChatEntry entry) {
    if (entry instanceof CallCard c) {
      return new StoredEntry(
          "call",
          c.detail(),
          c.callId(),
          c.tool(),
          c.risk().wire(),
          c.state().name(),
          c.summaryProperty().get(),
          c.argumentsProperty().get(),
          c.resultProperty().get(),
          null);
    }
    MessageEntry m = (MessageEntry) entry;
    return StoredEntry.message(m.kind().name().toLowerCase(Locale.ROOT), m.text(), m.at());
  }

  static ChatEntry toChat(StoredEntry e) {
    if (e.kind().equals("call")) {
      CallState state;
      try {
        state = CallState.valueOf(java.util.Objects.requireNonNullElse(e.state(), "FAILED"));
      } catch (RuntimeException ex) {
        state = CallState.FAILED;
      }
      // A call that was still going when the app stopped did not finish under our eyes.
      if (!state.finished()) state = CallState.FAILED;
      return new CallCard(
          nz(e.callId()),
          nz(e.tool()),
          Risk.of(e.risk() == null ? "low" : e.risk()),
          nz(e.summary()),
          nz(e.arguments()),
          state,
          e.text(),
          nz(e.result()));
    }
    MessageEntry.Kind kind;
    try {
      kind = MessageEntry.Kind.valueOf(e.kind().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException ex) {
      kind = MessageEntry.Kind.NOTICE;
    }
    Instant at = e.at();
    return at == null ? new MessageEntry(kind, e.text()) : new MessageEntry(kind, e.text(), at);
  }

  private static String nz(@Nullable String s) {
    return s == null ? "" : s;
  }

  private void report(String text) {
    ui.execute(() -> problem.set(text));
  }

  public ObservableList<Conversation> conversations() {
    return conversations;
  }

  /** The conversations the search leaves (all when there is none), newest first. */
  public ObservableList<Conversation> shown() {
    return shown;
  }

  public javafx.beans.property.StringProperty searchTextProperty() {
    return searchText;
  }

  public javafx.beans.property.ReadOnlyObjectProperty<@Nullable Deleted> deletedProperty() {
    return deleted;
  }

  public ObjectProperty<@Nullable Conversation> currentProperty() {
    return current;
  }

  public ReadOnlyStringProperty problemProperty() {
    return problem.getReadOnlyProperty();
  }
}
