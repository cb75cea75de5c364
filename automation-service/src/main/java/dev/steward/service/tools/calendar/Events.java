package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code calendar.events} (seed 000's two axes): titles and times, never participants, notes or
 * places. Events Steward made are {@code low}; a call that would show any event the user made is
 * {@code high} and needs a click for exactly its arguments. The run checks again: without that
 * click it answers Steward's events only (an event the user added in the meantime stays hidden).
 */
final class Events extends CalendarTool {

  private static final Logger LOG = Logger.getLogger(Events.class.getName());
  static final int MAX_EVENTS = 1000;

  /** The occurrences a call asks for, split by who made their event. */
  private record Selection(List<Ics.Occurrence> mine, List<Ics.Occurrence> users) {}

  Events(CalendarAccess access) {
    super("calendar.events", access);
  }

  @Override
  public Risk risk(JsonNode args, ToolContext ctx) {
    if (access.unavailable().isPresent()) return definition().risk();
    try {
      return select(args).users().isEmpty() ? Risk.LOW : Risk.HIGH;
    } catch (ToolFailure e) {
      // The calendar could not be read: ask, rather than guess that nothing of the user's shows.
      LOG.log(Level.FINE, "calendar.events: cannot tell whose events a call shows", e);
      return Risk.HIGH;
    }
  }

  /**
   * A title of an event the user did not make with Steward may be a stranger's words (an
   * invitation's): once such events are shown, the conversation is tainted.
   */
  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return ctx.confirmed()
        ? Optional.of("calendar events (titles may come from invitations)")
        : Optional.empty();
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    if (access.unavailable().isPresent()) return Optional.empty();
    try {
      Selection s = select(args);
      if (s.users().isEmpty()) return Optional.empty();
      // The agent's preview says that it asks, not how many of the user's events lie there
      // (a number its result withholds too).
      if (!ctx.forPerson())
        return Optional.of(Json.object()
            .put(
                "says",
                "Show the assistant the titles and times of events you made yourself between "
                    + args.path("from").asText() + " and " + args.path("to").asText()
                    + " (shown to you when you approve)"));
      Set<String> users = new HashSet<>();
      s.users().forEach(o -> users.add(o.uid()));
      ObjectNode p = Json.object();
      p.put(
          "says",
          "Show the assistant the titles and times of "
              + Counted.of(users.size(), "event", "events")
              + " you made yourself (" + Counted.of(s.users().size(), "occurrence", "occurrences")
              + ") between "
              + args.path("from").asText() + " and " + args.path("to").asText()
              + "; never their participants, notes or places");
      p.put("events_you_made", users.size());
      p.put(
          "events_steward_made",
          s.mine().stream().map(Ics.Occurrence::uid).distinct().count());
      return Optional.of(p);
    } catch (ToolFailure e) {
      return Optional.empty();
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ZoneId local = access.zone();
    Selection s = select(args);
    List<Ics.Occurrence> shown = new ArrayList<>(s.mine());
    int withheld = 0;
    if (ctx.confirmed()) {
      shown.addAll(s.users());
      shown.sort(
          java.util.Comparator.comparing((Ics.Occurrence o) -> Ics.instant(o.start(), local)));
    } else {
      withheld = s.users().size();
    }
    ObjectNode result = Json.object();
    ArrayNode events = result.putArray("events");
    for (Ics.Occurrence o : shown) {
      if (events.size() == MAX_EVENTS) {
        result.put("truncated", true);
        break;
      }
      ObjectNode e = events.addObject();
      e.put("event_id", o.uid());
      e.put("title", o.title());
      Times.put(e, o.start(), o.end(), o.allDay(), o.zone(), local);
    }
    // Whether, not how many: a count would tell more about the user's events than availability
    // does.
    if (withheld > 0) result.put("withheld", true);
    return result;
  }

  private Selection select(JsonNode args) throws ToolFailure {
    ZoneId local = access.zone();
    Times.Range range = Times.range(args, local);
    Set<String> only = new HashSet<>();
    args.path("event_ids").forEach(id -> only.add(id.asText()));
    CalDav dav = access.dav();
    OwnEvents own = access.own();
    List<Ics.Occurrence> mine = new ArrayList<>();
    List<Ics.Occurrence> users = new ArrayList<>();
    for (List<Ics.Shape> shapes : access.parsed().inRange(dav, range.from(), range.to())) {
      for (Ics.Occurrence o : Ics.expand(shapes, range.from(), range.to(), local)) {
        if (!only.isEmpty() && !only.contains(o.uid())) continue;
        (own.madeAsIs(o.uid(), o.title()) ? mine : users).add(o);
      }
    }
    return new Selection(mine, users);
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(value.path("events").size(), "event", "events")
        + (value.path("withheld").asBoolean(false)
            ? " (your own events left out: not approved)"
            : "");
  }
}
