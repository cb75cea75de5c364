package dev.steward.app.approval;

import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** How long an "Always allow here" lasts, as the dialog offers it. */
public enum GrantSpan {
  UNTIL_REVOKED("until you revoke it", null),
  ONE_HOUR("for an hour", Duration.ofHours(1)),
  ONE_DAY("for a day", Duration.ofDays(1)),
  ONE_WEEK("for a week", Duration.ofDays(7));

  private final String words;
  private final @Nullable Duration length;

  GrantSpan(String words, @Nullable Duration length) {
    this.words = words;
    this.length = length;
  }

  /** When a grant made at {@code now} ends; null when it lasts until revoked. */
  public @Nullable Instant until(Instant now) {
    return length == null ? null : now.plus(length);
  }

  @Override
  public String toString() {
    return words;
  }
}
