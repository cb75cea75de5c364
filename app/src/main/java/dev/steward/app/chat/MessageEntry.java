package dev.steward.app.chat;

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

  public MessageEntry(Kind kind, String text) {
    this.kind = kind;
    this.text = new ReadOnlyStringWrapper(text);
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
