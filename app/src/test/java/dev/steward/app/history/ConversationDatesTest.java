package dev.steward.app.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ConversationDatesTest {

  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  // Friday 27 November 2026, 15:00 in Paris.
  private static final Instant NOW = Instant.parse("2026-11-27T14:00:00Z");

  private static String at(String instant) {
    return ConversationDates.describe(Instant.parse(instant), NOW, PARIS, Locale.UK);
  }

  @Test
  void recentDaysInWordsOlderOnesAsDates() {
    assertEquals("Today, 09:05", at("2026-11-27T08:05:00Z"));
    assertEquals("Today, 00:30", at("2026-11-26T23:30:00Z"), "after midnight in the user's zone");
    assertEquals("Yesterday, 23:59", at("2026-11-26T22:59:00Z"));
    assertEquals("Monday", at("2026-11-23T10:00:00Z"));
    assertEquals("20 Nov", at("2026-11-20T10:00:00Z"));
    assertEquals("3 Dec 2025", at("2025-12-03T10:00:00Z"));
  }

  @Test
  void aClockAheadOfNowStillReadsToday() {
    assertEquals("Today, 15:10", at("2026-11-27T14:10:00Z"));
  }
}
