package dev.steward.app.history;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One entry of a saved conversation: a message ({@code kind} user, assistant, notice or error,
 * with its text) or a tool call card ({@code kind} call, with the card's fields); {@code at} is
 * when it was written (none for cards, and for messages saved before times were kept).
 */
public record StoredEntry(
    String kind,
    String text,
    @Nullable String callId,
    @Nullable String tool,
    @Nullable String risk,
    @Nullable String state,
    @Nullable String summary,
    @Nullable String arguments,
    @Nullable String result,
    @Nullable Instant at) {

  public static StoredEntry message(String kind, String text, Instant at) {
    return new StoredEntry(kind, text, null, null, null, null, null, null, null, at);
  }
}
