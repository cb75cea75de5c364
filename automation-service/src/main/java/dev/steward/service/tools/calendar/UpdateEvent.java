package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import net.fortuna.ical4j.model.Calendar;
import org.jspecify.annotations.Nullable;

/**
 * {@code calendar.update_event}: a new title or new times for an event (a repeating one as a
 * whole), written only over the version read (If-Match). The version it replaced is kept for undo,
 * which puts it back only over the version this call wrote.
 */
final class UpdateEvent extends CalendarTool {

  private static final Logger LOG = Logger.getLogger(UpdateEvent.class.getName());

  private final Clock clock;

  /** The event as it is and as it will be. */
  private record Change(
      CalDav.Resource before,
      Calendar after,
      String oldTitle,
      String newTitle,
      Times.@Nullable Span oldSpan,
      Times.Span newSpan,
      Optional<String> repeats) {}

  UpdateEvent(CalendarAccess access, Clock clock) {
    super("calendar.update_event", access);
    this.clock = clock;
  }

  @Override
  public List<String> versions(JsonNode args) {
    return eventVersion(args);
  }

  /** The change as it would be made now: an event that is there, times that can move. */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    change(args, access.dav(), ctx);
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    if (access.unavailable().isPresent()) return Optional.empty();
    try {
      Change c = change(args, access.dav(), ctx);
      ObjectNode p = Json.object();
      if (!ctx.forPerson()
          && !access.own().madeAsIs(args.path("event_id").asText(), c.oldTitle())) {
        // An agent's preview of an event the user made: not a way to read its title or times.
        p.put("says", "Change an event you made (shown to you when you approve)");
        return Optional.of(p);
      }
      // The sentence quotes no title (one could end the quote and go on in Steward's words): the
      // event stands in the lines below it, as it is and as it will be.
      p.put(
          "says",
          c.repeats().isPresent()
              ? "Change the repeating event below, as a series (an occurrence changed apart keeps"
                  + " its own); the event as it was is kept for undo"
              : "Change the event below; the event as it was is kept for undo");
      p.put(
          "diff",
          EventLines.change(
              c.oldTitle(),
              Optional.ofNullable(c.oldSpan()),
              c.newTitle(),
              c.newSpan(),
              c.repeats()));
      ObjectNode event = p.putObject("event");
      event.put("event_id", args.path("event_id").asText());
      event.put("title", c.newTitle());
      Times.put(event, c.newSpan(), access.zone());
      return Optional.of(p);
    } catch (ToolFailure e) {
      return Optional.empty();
    }
  }

  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    if (!args.has("title")
        && !args.has("start")
        && !args.has("end")
        && !args.has("all_day")
        && !args.has("time_zone")) {
      throw Times.invalid("/title", "say what changes: title, start, end, all_day or time_zone");
    }
    Times.checkZone(args);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    CalDav dav = access.dav();
    Change c = change(args, dav, ctx);
    String version = CalDav.version(c.before().etag());
    String id = args.path("event_id").asText();
    boolean asMade = access.own().madeAsIs(id, c.oldTitle());
    ObjectNode undo = Json.object()
        .put("href", c.before().href().toString())
        .put("before", c.before().ics())
        // Whether the title the undo puts back is the one Steward wrote: a stranger's is not made
        // Steward's own by coming back.
        .put("title_as_made", asMade);
    CreateEvent.Undo.keep(ctx, UndoRecord.of(name(), "update", undo));
    String etag = dav.replace(c.before().href(), Ics.write(c.after()), version);
    if (etag != null) {
      undo.put("etag", etag);
      CreateEvent.Undo.keep(ctx, UndoRecord.of(name(), "update", undo));
    }
    if (args.hasNonNull("title") && access.own().made(id)) {
      try {
        access.own().remember(id, c.newTitle());
      } catch (IOException e) {
        // The change stands; reading the event back will ask the user, as for one they made.
        LOG.log(Level.WARNING, "calendar: cannot remember the title Steward wrote on " + id, e);
      }
    }
    ObjectNode result = Json.object();
    result.put("event_id", id);
    // The approval was for a change, not for showing the user's (or a stranger's) title to the
    // model.
    if (args.hasNonNull("title") || asMade) result.put("title", c.newTitle());
    Times.put(result, c.newSpan(), access.zone());
    return result;
  }

  private Change change(JsonNode args, CalDav dav, ToolContext ctx) throws ToolFailure {
    ZoneId local = access.zone();
    CalDav.Resource before = approved(dav, args, ctx);
    Calendar parsed = Ics.parse(before.ics());
    Times.Span oldSpan = Ics.span(parsed, local).orElse(null);
    Times.Span newSpan = Times.event(args, local, oldSpan);
    String oldTitle = Ics.title(parsed);
    String newTitle = args.hasNonNull("title") ? args.get("title").asText() : oldTitle;
    boolean timesChange =
        args.has("start") || args.has("end") || args.has("all_day") || args.has("time_zone");
    if (timesChange && Ics.heldApart(parsed)) {
      // Only the series' own times move: the occurrences left out or changed apart are kept by
      // their old times, so left-out ones would come back and moved ones stay behind.
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "this repeating event has occurrences left out, added or changed apart, which would not"
              + " move with it: move it in your calendar app, or change only its title here",
          "/start",
          null);
    }
    Calendar after = Ics.change(
        parsed,
        args.hasNonNull("title") ? newTitle : null,
        timesChange ? newSpan : null,
        clock.instant());
    return new Change(
        before, after, oldTitle, newTitle, oldSpan, newSpan, Ics.repeats(parsed, local));
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    JsonNode data = CreateEvent.Undo.data(record, access);
    CalDav dav = access.dav();
    URI href = CreateEvent.Undo.href(dav, data);
    String before = data.path("before").asText();
    dav.replace(href, before, CalDav.version(data.path("etag").asText(null)));
    if (!data.path("title_as_made").asBoolean(false))
      return Json.object().put("restored", href.getPath());
    // The title Steward had written is back: the event reads as Steward's again.
    String title = Ics.title(Ics.parse(before));
    for (String uid : Ics.uids(before)) {
      if (!access.own().made(uid)) continue;
      try {
        access.own().remember(uid, title);
      } catch (IOException e) {
        LOG.log(Level.WARNING, "calendar: cannot remember the title Steward wrote on " + uid, e);
      }
    }
    return Json.object().put("restored", href.getPath());
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "changed event " + value.path("event_id").asText();
  }
}
