package dev.steward.app.history;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** When a conversation was last used, in the words a list of conversations uses. */
final class ConversationDates {

  private ConversationDates() {}

  /** "Today, 14:05", "Yesterday, 09:30", "Monday", "12 Nov", "12 Nov 2025". */
  static String describe(Instant at, Instant now, ZoneId zone, Locale locale) {
    ZonedDateTime when = at.atZone(zone);
    LocalDate day = when.toLocalDate();
    LocalDate today = now.atZone(zone).toLocalDate();
    long daysAgo = ChronoUnit.DAYS.between(day, today);
    String time =
        DateTimeFormatter.ofLocalizedTime(FormatStyle.SHORT).withLocale(locale).format(when);
    if (daysAgo <= 0) return "Today, " + time;
    if (daysAgo == 1) return "Yesterday, " + time;
    if (daysAgo < 7) return day.getDayOfWeek().getDisplayName(TextStyle.FULL, locale);
    String pattern = day.getYear() == today.getYear() ? "d MMM" : "d MMM yyyy";
    return DateTimeFormatter.ofPattern(pattern, locale).format(day);
  }
}
