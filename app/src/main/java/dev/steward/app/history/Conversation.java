package dev.steward.app.history;

import java.time.Instant;

/** A saved conversation as the history list shows it. */
public record Conversation(String id, String title, Instant updatedAt) {

  @Override
  public String toString() {
    return title;
  }
}
