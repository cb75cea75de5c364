package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.net.URI;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import net.fortuna.ical4j.model.Calendar;

/**
 * {@code calendar.delete_event}: removes an event's object (a repeating event whole) only if it is
 * still the version read; the object is kept for undo, which stores it again only where nothing
 * has taken its place.
 */
final class DeleteEvent extends CalendarTool {

  DeleteEvent(CalendarAccess access) {
    super("calendar.delete_event", access);
  }

  @Override
  public List<String> versions(JsonNode args) {
    return eventVersion(args);
  }

  /** An event that is there: none to delete is refused before any dialog. */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    find(access.dav(), args.path("event_id").asText());
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    if (access.unavailable().isPresent()) return Optional.empty();
    try {
      ZoneId local = access.zone();
      CalDav.Resource r = find(access.dav(), args.path("event_id").asText());
      Calendar parsed = Ics.parse(r.ics());
      if (!ctx.forPerson()
          && !access.own().madeAsIs(args.path("event_id").asText(), Ics.title(parsed))) {
        // An agent's preview of an event the user made (or one changed since Steward made it):
        // not a way to read its title or times.
        return Optional.of(
            Json.object().put("says", "Delete an event you made (shown to you when you approve)"));
      }
      Optional<Times.Span> span = Ics.span(parsed, local);
      Optional<String> repeats = Ics.repeats(parsed, local);
      ObjectNode p = Json.object();
      // The sentence quotes nothing of the event: a title (an invitation's) could end the quote
      // and go on in Steward's words. The event stands below it, one field a line.
      p.put(
          "says",
          (repeats.isPresent()
                  ? "Delete the repeating event below, every occurrence of it,"
                  : "Delete the event below")
              + " from your assistant calendar; it is kept for undo");
      p.put("diff", EventLines.of('-', Ics.title(parsed), span, repeats));
      ObjectNode event = p.putObject("event");
      event.put("event_id", args.path("event_id").asText());
      event.put("title", Ics.title(parsed));
      span.ifPresent(s -> Times.put(event, s, local));
      return Optional.of(p);
    } catch (ToolFailure e) {
      return Optional.empty();
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    CalDav dav = access.dav();
    String id = args.path("event_id").asText();
    CalDav.Resource r = approved(dav, args, ctx);
    String version = CalDav.version(r.etag());
    CreateEvent.Undo.keep(
        ctx,
        UndoRecord.of(
            name(),
            "delete",
            Json.object().put("href", r.href().toString()).put("before", r.ics())));
    dav.delete(r.href(), version);
    return Json.object().put("event_id", id).put("deleted", true);
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    JsonNode data = CreateEvent.Undo.data(record, access);
    CalDav dav = access.dav();
    URI href = CreateEvent.Undo.href(dav, data);
    dav.create(href, data.path("before").asText());
    return Json.object().put("restored", href.getPath());
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "deleted event " + args.path("event_id").asText();
  }
}
