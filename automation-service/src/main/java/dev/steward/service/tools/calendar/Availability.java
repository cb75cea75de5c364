package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code calendar.availability} (seed 000's first axis): when the user is busy, and nothing else —
 * no titles, no ids; overlapping times are merged, so not even how many events there are shows.
 */
final class Availability extends CalendarTool {

  Availability(CalendarAccess access) {
    super("calendar.availability", access);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ZoneId local = access.zone();
    Times.Range range = Times.range(args, local);
    CalDav dav = access.dav();
    List<Ics.Occurrence> busy = new ArrayList<>();
    for (List<Ics.Shape> shapes : access.parsed().inRange(dav, range.from(), range.to())) {
      for (Ics.Occurrence o : Ics.expand(shapes, range.from(), range.to(), local)) {
        if (o.busy()) busy.add(o);
      }
      ToolContext.checkCancelled();
    }
    // Occurrences come sorted per object; the merge below needs them sorted across all.
    busy.sort(java.util.Comparator.comparing((Ics.Occurrence o) -> Ics.instant(o.start(), local)));
    ObjectNode result = Json.object();
    ArrayNode slots = result.putArray("slots");
    for (Ics.Occurrence o : busy) {
      if (o.allDay()) Times.put(slots.addObject(), o.start(), o.end(), true, null, local);
    }
    Instant openStart = null;
    Instant openEnd = null;
    for (Ics.Occurrence o : busy) {
      if (o.allDay()) continue;
      Instant s = Ics.instant(o.start(), local);
      Instant e = Ics.instant(o.end(), local);
      if (openEnd != null && !s.isAfter(openEnd)) {
        if (e.isAfter(openEnd)) openEnd = e;
        continue;
      }
      if (openStart != null && openEnd != null) slot(slots, openStart, openEnd, local);
      openStart = s;
      openEnd = e;
    }
    if (openStart != null && openEnd != null) slot(slots, openStart, openEnd, local);
    return result;
  }

  /** In the user's own zone: a slot says when, not in which zone its event was made. */
  private static void slot(ArrayNode slots, Instant s, Instant e, ZoneId local) {
    Times.put(slots.addObject(), s.atZone(local), e.atZone(local), false, null, local);
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(value.path("slots").size(), "busy time", "busy times");
  }
}
