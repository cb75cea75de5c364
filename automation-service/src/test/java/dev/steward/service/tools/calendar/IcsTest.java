package dev.steward.service.tools.calendar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expanding what a calendar holds: exceptions and moved occurrences kept, a rule bomb cut short. */
class IcsTest {

  static final ZoneId UTC = ZoneId.of("UTC");

  static String calendar(String... lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\n" + String.join("\r\n", lines)
        + "\r\nEND:VCALENDAR\r\n";
  }

  @Test
  void the_warm_up_reads_back_the_event_it_made() {
    assertEquals(1, Ics.prime(), "the priming's event, made, written, read and expanded");
  }

  @Test
  void an_exception_is_left_out_and_a_moved_occurrence_is_at_its_new_time() throws Exception {
    String ics = calendar(
        "BEGIN:VEVENT",
        "UID:w",
        "DTSTAMP:20260101T000000Z",
        "DTSTART;TZID=Europe/Berlin:20260302T090000",
        "DTEND;TZID=Europe/Berlin:20260302T100000",
        "RRULE:FREQ=WEEKLY;COUNT=4",
        "EXDATE;TZID=Europe/Berlin:20260309T090000",
        "SUMMARY:Standup",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:w",
        "DTSTAMP:20260101T000000Z",
        "RECURRENCE-ID;TZID=Europe/Berlin:20260316T090000",
        "DTSTART;TZID=Europe/Berlin:20260317T140000",
        "DTEND;TZID=Europe/Berlin:20260317T150000",
        "SUMMARY:Standup (moved)",
        "END:VEVENT");
    List<String> starts = Ics.expand(
            Ics.parse(ics),
            Instant.parse("2026-03-01T00:00:00Z"),
            Instant.parse("2026-04-01T00:00:00Z"),
            UTC)
        .stream()
        .map(o -> Ics.instant(o.start(), UTC) + " " + o.title())
        .toList();
    assertEquals(
        List.of(
            "2026-03-02T08:00:00Z Standup",
            "2026-03-17T13:00:00Z Standup (moved)",
            "2026-03-23T08:00:00Z Standup"),
        starts);
  }

  @Test
  void a_rule_that_would_repeat_millions_of_times_is_cut_short() throws Exception {
    String ics = calendar(
        "BEGIN:VEVENT",
        "UID:bomb",
        "DTSTAMP:20260101T000000Z",
        "DTSTART:20260101T000000Z",
        "DTEND:20260101T000001Z",
        "RRULE:FREQ=HOURLY;BYMINUTE=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59;BYSECOND=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59",
        "SUMMARY:x",
        "END:VEVENT");
    // Without the cut, ical4j holds 31 million periods: the test runs out of memory.
    int n = Ics.expand(
            Ics.parse(ics),
            Instant.parse("2026-01-01T00:00:00Z"),
            Instant.parse("2027-01-01T00:00:00Z"),
            UTC)
        .size();
    assertEquals(Ics.MOST_OCCURRENCES, n);
  }

  @Test
  void a_rule_counted_in_millions_from_long_ago_is_left_out() throws Exception {
    String ics = calendar(
        "BEGIN:VEVENT",
        "UID:counted",
        "DTSTAMP:20260101T000000Z",
        "DTSTART:19700101T000000Z",
        "DTEND:19700101T000001Z",
        "RRULE:FREQ=MINUTELY;COUNT=2000000000",
        "SUMMARY:x",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:fine",
        "DTSTAMP:20260101T000000Z",
        "DTSTART:20260301T090000Z",
        "DTEND:20260301T100000Z",
        "RRULE:FREQ=DAILY;COUNT=3",
        "SUMMARY:y",
        "END:VEVENT");
    // ical4j does not skip ahead to the range for a counted rule: it would hold every minute
    // since 1970 first (tens of millions), and run the service out of memory.
    List<Ics.Occurrence> found = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
        java.time.Duration.ofSeconds(10),
        () -> Ics.expand(
            Ics.parse(ics),
            Instant.parse("2026-03-01T00:00:00Z"),
            Instant.parse("2026-03-02T00:00:00Z"),
            UTC));
    assertEquals(List.of("fine"), found.stream().map(Ics.Occurrence::uid).toList());
  }

  @Test
  void a_few_occurrences_are_kept_for_the_range_and_many_are_not() throws Exception {
    Instant from = Instant.parse("2026-03-01T00:00:00Z");
    Instant to = Instant.parse("2026-04-01T00:00:00Z");
    for (String rule : List.of("FREQ=WEEKLY", "FREQ=HOURLY")) {
      Ics.Shape shape = Ics.shapes(Ics.parse(calendar(
              "BEGIN:VEVENT",
              "UID:r",
              "DTSTAMP:20260101T000000Z",
              "DTSTART:20260101T090000Z",
              "DTEND:20260101T093000Z",
              "RRULE:" + rule,
              "SUMMARY:x",
              "END:VEVENT")))
          .get(0);
      var first = shape.recurrences().of(shape.rule(), from, to);
      var again = shape.recurrences().of(shape.rule(), from, to);
      assertEquals(first, again);
      boolean small = first.size() <= Ics.Recurrences.MOST_KEPT;
      assertEquals(small, first == again, rule + ": kept only when small (" + first.size() + ")");
    }
  }
}
