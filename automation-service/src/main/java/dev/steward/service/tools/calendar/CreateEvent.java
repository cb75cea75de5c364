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
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code calendar.create_event}: a new object in the calendar, never over an existing one; its UID
 * is kept, so Steward may read it back without a click. Undo deletes it — unless it was changed
 * since.
 */
final class CreateEvent extends CalendarTool {

  private static final Logger LOG = Logger.getLogger(CreateEvent.class.getName());

  private final Clock clock;

  CreateEvent(CalendarAccess access, Clock clock) {
    super("calendar.create_event", access);
    this.clock = clock;
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    try {
      Times.Span span = Times.event(args, access.zone(), null);
      ObjectNode p = Json.object();
      // The sentence quotes no title (one could end the quote and go on in Steward's words).
      p.put("says", "Create the event below in your assistant calendar");
      p.put(
          "diff",
          EventLines.of('+', args.path("title").asText(), Optional.of(span), Optional.empty()));
      ObjectNode event = p.putObject("event");
      event.put("title", args.path("title").asText());
      Times.put(event, span, access.zone());
      return Optional.of(p);
    } catch (ToolFailure e) {
      return Optional.empty();
    }
  }

  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    Times.checkZone(args);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ZoneId local = access.zone();
    String title = args.path("title").asText();
    Times.Span span = Times.event(args, local, null);
    CalDav dav = access.dav();
    String name = UUID.randomUUID().toString();
    String uid = name + "@steward";
    URI href = dav.child(name + ".ics");
    ObjectNode undo = Json.object().put("href", href.toString());
    Undo.keep(ctx, UndoRecord.of(name(), "create", undo));
    String etag = dav.create(href, Ics.write(Ics.create(uid, title, span, clock.instant())));
    try {
      access.own().remember(uid, title);
    } catch (IOException e) {
      // The event stands; reading it back will ask the user, as for an event they made.
      LOG.log(Level.WARNING, "calendar: cannot remember that Steward made " + uid, e);
    }
    if (etag != null) {
      undo.put("etag", etag);
      Undo.keep(ctx, UndoRecord.of(name(), "create", undo));
    }
    ObjectNode result = Json.object();
    result.put("event_id", uid);
    result.put("title", title);
    Times.put(result, span, local);
    return result;
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    JsonNode data = Undo.data(record, access);
    CalDav dav = access.dav();
    URI href = Undo.href(dav, data);
    dav.delete(href, CalDav.version(data.path("etag").asText(null)));
    return Json.object().put("deleted", href.getPath());
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "created event " + value.path("event_id").asText();
  }

  /** What the undo of the pack's changes shares. */
  static final class Undo {
    private Undo() {}

    static JsonNode data(UndoRecord record, CalendarAccess access) throws ToolFailure {
      java.util.Optional<String> missing = access.unavailable();
      if (missing.isPresent()) throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, missing.get());
      JsonNode data = record.data();
      if (data == null || !data.hasNonNull("href")) {
        throw new ToolFailure(ToolErrorCodes.NOT_FOUND, "this change kept nothing to undo");
      }
      return data;
    }

    /**
     * Keeps the undo record before the change is made (what it replaces is then never lost) and
     * again once the change's version is known.
     */
    static void keep(ToolContext ctx, UndoRecord record) throws ToolFailure {
      try {
        ctx.undo().save(record);
      } catch (IOException e) {
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR,
            "cannot keep what the change replaces, so nothing was changed: " + e.getMessage());
      }
    }

    /** The event's address, if it is still inside the calendar set up now. */
    static URI href(CalDav dav, JsonNode data) throws ToolFailure {
      URI href = URI.create(data.get("href").asText());
      if (!dav.holds(href)) {
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "the event is in a calendar that is no longer the one set up (Settings → Calendar)");
      }
      return href;
    }
  }
}
