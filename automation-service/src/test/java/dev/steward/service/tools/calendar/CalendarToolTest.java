package dev.steward.service.tools.calendar;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.PathScope;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoStash;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A click approves the version of the event its dialog showed, and that version only. */
class CalendarToolTest {

  static final CalDav.Resource SHOWN = new CalDav.Resource(
      URI.create("https://dav.example/cal/a.ics"), "\"1\"", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");

  static ToolContext ctx(boolean confirmed, Map<String, String> stamps) {
    return new ToolContext(
        Map.of(),
        PathScope.of(List.of(), List.of(), Path.of("/tmp")),
        m -> {},
        false,
        UndoStash.none(),
        false,
        confirmed,
        stamps);
  }

  @Test
  void a_calendar_on_another_machine_is_sent_every_calls_words() {
    for (String here : List.of(
        "http://127.0.0.1:5232/alice/cal/", "http://localhost/dav/", "http://[::1]:8080/cal/")) {
      assertEquals(true, dev.steward.protocol.util.Loopback.url(here), here);
    }
    for (String there : List.of(
        "https://cal.example.org/dav/alice/cal/",
        "https://127.0.0.1.example.org/cal/",
        "http://10.0.0.5/cal/",
        "not a url")) {
      assertEquals(false, dev.steward.protocol.util.Loopback.url(there), there);
    }
    for (String url : List.of("http://127.0.0.1:5232/alice/cal/", "https://cal.example.org/a/")) {
      CalendarAccess access = new CalendarAccess(
          () -> dev.steward.protocol.policy.PolicyDocument.defaults()
              .withCalendar(new dev.steward.protocol.policy.PolicyDocument.Calendar(url)),
          dev.steward.service.tools.PackSecrets.none(),
          new OwnEvents(Path.of("/tmp/steward-calendar-test-unused")),
          () -> java.time.ZoneOffset.UTC);
      assertEquals(
          url.contains("example.org"),
          new Availability(access)
              .sends(com.fasterxml.jackson.databind.node.NullNode.getInstance()),
          "availability of " + url + " sends");
    }
  }

  @Test
  void the_version_shown_runs_and_any_other_asks_again() {
    String stamp = CalendarTool.version(SHOWN);
    assertDoesNotThrow(
        () -> CalendarTool.checkApproved(ctx(true, Map.of("/event_id", stamp)), SHOWN));
    for (CalDav.Resource other : List.of(
        new CalDav.Resource(SHOWN.href(), "\"2\"", SHOWN.ics()),
        new CalDav.Resource(SHOWN.href(), SHOWN.etag(), SHOWN.ics() + "X"),
        new CalDav.Resource(
            URI.create("https://dav.example/cal/b.ics"), SHOWN.etag(), SHOWN.ics()))) {
      ToolFailure f = assertThrows(
          ToolFailure.class,
          () -> CalendarTool.checkApproved(ctx(true, Map.of("/event_id", stamp)), other));
      assertEquals(ToolErrorCodes.TOKEN_MISMATCH, f.error().code());
    }
  }

  @Test
  void a_click_with_no_version_known_approves_none_and_a_call_asked_for_by_no_one_needs_none() {
    ToolFailure f = assertThrows(
        ToolFailure.class, () -> CalendarTool.checkApproved(ctx(true, Map.of()), SHOWN));
    assertEquals(ToolErrorCodes.TOKEN_MISMATCH, f.error().code());
    assertDoesNotThrow(() -> CalendarTool.checkApproved(ctx(false, Map.of()), SHOWN));
  }
}
