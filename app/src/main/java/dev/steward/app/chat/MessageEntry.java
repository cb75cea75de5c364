package dev.steward.app.chat;

import java.time.Instant;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** A message in the conversation; an assistant's text grows while it streams. */
public final class MessageEntry implements ChatEntry {

  /** Who speaks: the user, the assistant, Steward itself, or an error. */
  public enum Kind {
    USER,
    ASSISTANT,
    NOTICE,
    ERROR
  }

  private final Kind kind;
  private final ReadOnlyStringWrapper text;
  private final Instant at;

  public MessageEntry(Kind kind, String text) {
    this(kind, text, Instant.now());
  }

  /** A message written at {@code at} (one brought back from the history). */
  public MessageEntry(Kind kind, String text, Instant at) {
    this.kind = kind;
    this.text = new ReadOnlyStringWrapper(text);
    this.at = at;
  }

  /** When it was written (for a streamed reply: when it began). */
  public Instant at() {
    return at;
  }

  public Kind kind() {
    return kind;
  }

  public ReadOnlyStringProperty textProperty() {
    return text.getReadOnlyProperty();
  }

  public String text() {
    return text.get();
  }

  void append(String more) {
    text.set(text.get() + more);
  }

  void replace(String now) {
    text.set(now);
  }
}
