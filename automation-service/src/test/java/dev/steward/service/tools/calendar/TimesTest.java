package dev.steward.service.tools.calendar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The times the tools take: days, local times, offsets; every bad one names its field. */
class TimesTest {

  static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  static JsonNode args(String json) {
    try {
      return Json.parse(json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void a_day_as_to_includes_that_day_and_ranges_are_bounded() throws Exception {
    Times.Range r = Times.range(args("{\"from\":\"2026-03-18\",\"to\":\"2026-03-18\"}"), BERLIN);
    assertEquals(Instant.parse("2026-03-17T23:00:00Z"), r.from());
    assertEquals(Instant.parse("2026-03-18T23:00:00Z"), r.to());
    Times.Range o = Times.range(
        args("{\"from\":\"2026-03-18T09:00+05:00\",\"to\":\"2026-03-18T10:00Z\"}"), BERLIN);
    assertEquals(Instant.parse("2026-03-18T04:00:00Z"), o.from());
    for (String bad : new String[] {
      "{\"from\":\"2026-03-18\",\"to\":\"2026-03-17\"}",
      "{\"from\":\"2026-01-01\",\"to\":\"2027-06-01\"}",
      "{\"from\":\"2026-02-30\",\"to\":\"2026-03-01\"}",
      "{\"from\":\"tomorrow\",\"to\":\"2026-03-01\"}"
    }) {
      ToolFailure f = assertThrows(ToolFailure.class, () -> Times.range(args(bad), BERLIN), bad);
      assertEquals(ToolErrorCodes.VALIDATION_ERROR, f.error().code());
      assertTrue(f.error().field().equals("/from") || f.error().field().equals("/to"), bad);
    }
  }

  @Test
  void events_are_all_day_from_days_and_keep_their_zone_otherwise() throws Exception {
    Times.Span day =
        Times.event(args("{\"start\":\"2026-03-20\",\"end\":\"2026-03-21\"}"), BERLIN, null);
    assertTrue(day.allDay());
    assertEquals(LocalDate.parse("2026-03-22"), day.end(), "stored end is the day after the last");
    Times.Span timed = Times.event(
        args(
            "{\"start\":\"2026-03-29T01:30\",\"end\":\"2026-03-29T03:30\",\"time_zone\":\"Europe/Berlin\"}"),
        ZoneId.of("UTC"),
        null);
    assertEquals(BERLIN, timed.zone());
    assertEquals("+01:00", ((ZonedDateTime) timed.start()).getOffset().getId());
    assertEquals("+02:00", ((ZonedDateTime) timed.end()).getOffset().getId());
    Times.Span moved = Times.event(args("{\"start\":\"2026-03-29T10:00\"}"), BERLIN, timed);
    assertEquals(
        java.time.Duration.ofHours(1),
        java.time.Duration.between((ZonedDateTime) moved.start(), (ZonedDateTime) moved.end()),
        "a new start keeps the length (1 h: the night lost an hour)");
    ToolFailure z = assertThrows(
        ToolFailure.class,
        () -> Times.event(
            args(
                "{\"start\":\"2026-03-20T09:00\",\"end\":\"2026-03-20T10:00\",\"time_zone\":\"+01:00\"}"),
            BERLIN,
            null));
    assertEquals("/time_zone", z.error().field());
    ToolFailure backwards = assertThrows(
        ToolFailure.class,
        () -> Times.event(
            args("{\"start\":\"2026-03-20T09:00\",\"end\":\"2026-03-20T08:00\"}"), BERLIN, null));
    assertEquals("/end", backwards.error().field());
  }
}
