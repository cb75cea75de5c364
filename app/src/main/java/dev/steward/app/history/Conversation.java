package dev.steward.app.history;

import java.time.Instant;

/**
 * A saved conversation as the history list shows it. {@code renamed}: the user gave the title, so
 * it no longer follows the first message.
 */
public record Conversation(String id, String title, Instant updatedAt, boolean renamed) {

  @Override
  public String toString() {
    return title;
  }
}
