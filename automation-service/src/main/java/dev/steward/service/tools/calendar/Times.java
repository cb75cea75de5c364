package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;
import org.jspecify.annotations.Nullable;

/**
 * The times the calendar tools take and give. A day is {@code 2026-03-18}; a moment is {@code
 * 2026-03-18T09:00} (in the event's or the user's time zone) or carries its offset ({@code
 * 2026-03-18T09:00+01:00}). An all-day event's {@code end} is its last day, inclusive, as people
 * say it (iCalendar's own end is the day after).
 */
final class Times {

  /**
   * An event's start and end: days (end exclusive, as stored) for an all-day event, or moments in
   * {@code zone}.
   */
  record Span(
      Temporal start,
      Temporal end,
      boolean allDay,
      @Nullable ZoneId zone) {}

  /** A range asked for: {@code [from, to)}. */
  record Range(Instant from, Instant to) {}

  static final Duration LONGEST_RANGE = Duration.ofDays(366);

  private Times() {}

  /** {@code from} and {@code to} of a read; a day as {@code to} includes that whole day. */
  static Range range(JsonNode args, ZoneId local) throws ToolFailure {
    Instant from = bound(args.path("from").asText(), false, local, "/from");
    Instant to = bound(args.path("to").asText(), true, local, "/to");
    if (!to.isAfter(from)) {
      throw invalid("/to", "\"to\" must be after \"from\"");
    }
    if (Duration.between(from, to).compareTo(LONGEST_RANGE) > 0) {
      throw invalid("/to", "a range is at most 366 days; ask for a shorter one");
    }
    return new Range(from, to);
  }

  /**
   * The span an event will have: from the arguments, over {@code current} for what they leave out
   * (an update). All-day when {@code all_day} says so or both ends are days.
   */
  static Span event(JsonNode args, ZoneId local, @Nullable Span current) throws ToolFailure {
    ZoneId zone = zone(args, current == null || current.zone() == null ? local : current.zone());
    String startText = args.hasNonNull("start") ? args.get("start").asText() : null;
    String endText = args.hasNonNull("end") ? args.get("end").asText() : null;
    if (current == null && (startText == null || endText == null)) {
      throw invalid(startText == null ? "/start" : "/end", "an event needs a start and an end");
    }
    boolean allDay = args.has("all_day")
        ? args.get("all_day").asBoolean()
        : startText != null && endText != null
            ? isDay(startText) && isDay(endText)
            : current != null
                && current.allDay()
                && (startText == null || isDay(startText))
                && (endText == null || isDay(endText));
    if (allDay) {
      LocalDate start = startText != null
          ? day(startText, "/start")
          : asDay(java.util.Objects.requireNonNull(current).start(), zone);
      LocalDate last = endText != null
          ? day(endText, "/end")
          : current != null && current.allDay() ? ((LocalDate) current.end()).minusDays(1) : start;
      if (last.isBefore(start)) throw invalid("/end", "the last day is before the first");
      if (last.toEpochDay() - start.toEpochDay() > 400) {
        throw invalid("/end", "an event lasts at most 400 days");
      }
      return new Span(start, last.plusDays(1), true, null);
    }
    ZonedDateTime start = startText != null
        ? moment(startText, zone, "/start")
        : asMoment(java.util.Objects.requireNonNull(current).start(), zone);
    ZonedDateTime end;
    if (endText != null) {
      end = moment(endText, zone, "/end");
    } else if (current != null && !current.allDay() && startText != null) {
      // A new start keeps the event's length.
      Duration length =
          Duration.between(asMoment(current.start(), zone), asMoment(current.end(), zone));
      end = start.plus(length);
    } else if (current != null && !current.allDay()) {
      end = asMoment(current.end(), zone);
    } else {
      end = start.plusHours(1);
    }
    if (!end.isAfter(start)) throw invalid("/end", "the end must be after the start");
    if (Duration.between(start, end).toDays() > 400) {
      throw invalid("/end", "an event lasts at most 400 days");
    }
    return new Span(start, end, false, zone);
  }

  /** The event's times as the tools answer them: {@code start}, {@code end}, {@code all_day}, {@code time_zone}. */
  static void put(
      ObjectNode out,
      Temporal start,
      Temporal end,
      boolean allDay,
      @Nullable ZoneId zone,
      ZoneId local) {
    if (allDay) {
      LocalDate s = (LocalDate) start;
      LocalDate e = end instanceof LocalDate d ? d : s.plusDays(1);
      out.put("start", s.toString());
      out.put("end", (e.isAfter(s) ? e.minusDays(1) : s).toString());
      out.put("all_day", true);
      return;
    }
    ZoneId z = zone != null ? zone : local;
    out.put("start", show(start, z, local));
    out.put("end", show(end, z, local));
    out.put("all_day", false);
    if (zone != null) out.put("time_zone", zone.getId());
  }

  static void put(ObjectNode out, Span span, ZoneId local) {
    put(out, span.start(), span.end(), span.allDay(), span.zone(), local);
  }

  /** One line a person reads: "Tue 2026-03-17 09:00–10:00 (Europe/Berlin)". */
  static String say(Span span) {
    if (span.allDay()) {
      LocalDate s = (LocalDate) span.start();
      LocalDate last = ((LocalDate) span.end()).minusDays(1);
      return last.equals(s)
          ? DAY.format(s) + ", all day"
          : DAY.format(s) + " to " + DAY.format(last) + ", all day";
    }
    ZonedDateTime s = (ZonedDateTime) span.start();
    ZonedDateTime e = (ZonedDateTime) span.end();
    String zone = " (" + s.getZone().getId() + ")";
    return s.toLocalDate().equals(e.toLocalDate())
        ? DAY.format(s) + " " + HOUR.format(s) + "–" + HOUR.format(e) + zone
        : DAY.format(s) + " " + HOUR.format(s) + " to " + DAY.format(e) + " " + HOUR.format(e)
            + zone;
  }

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("EEE yyyy-MM-dd", java.util.Locale.ROOT);
  private static final DateTimeFormatter HOUR =
      DateTimeFormatter.ofPattern("HH:mm", java.util.Locale.ROOT);

  private static String show(Temporal t, ZoneId zone, ZoneId local) {
    OffsetDateTime o;
    if (t instanceof LocalDateTime d) {
      o = d.atZone(local).toOffsetDateTime();
    } else if (t instanceof LocalDate d) {
      o = d.atStartOfDay(local).toOffsetDateTime();
    } else {
      o = Instant.from(t).atZone(zone).toOffsetDateTime();
    }
    return o.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  /** The call's time zone, checked as {@link #zone} checks it: before a dialog names it. */
  static void checkZone(JsonNode args) throws ToolFailure {
    zone(args, ZoneOffset.UTC);
  }

  private static ZoneId zone(JsonNode args, ZoneId fallback) throws ToolFailure {
    if (!args.hasNonNull("time_zone")) return fallback;
    String id = args.get("time_zone").asText();
    try {
      ZoneId z = ZoneId.of(id);
      if (z instanceof ZoneOffset && !id.equals("Z")) {
        throw invalid("/time_zone", "a time zone is a name such as Europe/Berlin, not an offset");
      }
      // "Etc/GMT+5" is UTC-5 and "GMT+5" UTC+5, all year: a dialog would show a name read as a
      // place, or as the opposite offset, for an event that lands hours from where it seems.
      if (z.getRules().isFixedOffset()
          && z.getRules().getOffset(Instant.EPOCH).getTotalSeconds() != 0) {
        throw invalid(
            "/time_zone",
            "\"" + id + "\" is a fixed offset, not a place's time; name the place, such as"
                + " America/New_York or Europe/Berlin");
      }
      return z;
    } catch (DateTimeException e) {
      throw invalid("/time_zone", "\"" + id + "\" is not a time zone name such as Europe/Berlin");
    }
  }

  private static Instant bound(String text, boolean end, ZoneId local, String field)
      throws ToolFailure {
    if (isDay(text)) {
      LocalDate d = day(text, field);
      return (end ? d.plusDays(1) : d).atStartOfDay(local).toInstant();
    }
    return moment(text, local, field).toInstant();
  }

  private static boolean isDay(String text) {
    return text.length() == 10 && text.charAt(4) == '-' && text.charAt(7) == '-';
  }

  private static LocalDate day(String text, String field) throws ToolFailure {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException e) {
      throw invalid(field, "\"" + text + "\" is not a day such as 2026-03-18");
    }
  }

  private static ZonedDateTime moment(String text, ZoneId zone, String field) throws ToolFailure {
    try {
      if (hasOffset(text)) return OffsetDateTime.parse(text).atZoneSameInstant(zone);
      return LocalDateTime.parse(text).atZone(zone);
    } catch (DateTimeParseException e) {
      throw invalid(
          field,
          "\"" + text + "\" is not a time such as 2026-03-18T09:00 or 2026-03-18T09:00+01:00");
    }
  }

  private static boolean hasOffset(String text) {
    int t = text.indexOf('T');
    if (t < 0) return false;
    String time = text.substring(t);
    return time.endsWith("Z") || time.indexOf('+') > 0 || time.indexOf('-') > 0;
  }

  private static LocalDate asDay(Temporal t, ZoneId zone) {
    return t instanceof LocalDate d ? d : Instant.from(t).atZone(zone).toLocalDate();
  }

  private static ZonedDateTime asMoment(Temporal t, ZoneId zone) {
    if (t instanceof LocalDate d) return d.atTime(9, 0).atZone(zone);
    return Instant.from(t).atZone(zone);
  }

  static ToolFailure invalid(String field, String message) {
    return new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, message, field, null);
  }
}
