package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.OneLook;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.VersionStamp;
import java.util.List;
import java.util.Optional;

/** A tool of the pack: unavailable until a calendar is set up, and the event lookup all share. */
abstract class CalendarTool extends BaseTool {

  private static final String EVENT = "/event_id";

  protected final CalendarAccess access;

  protected CalendarTool(String definition, CalendarAccess access) {
    super(load(definition));
    this.access = access;
  }

  private static ToolDefinition load(String name) {
    return ToolDefinitions.load(CalendarTool.class, name + ".json");
  }

  @Override
  public Optional<String> unavailable() {
    return access.unavailable();
  }

  /** A calendar on another machine is sent every call's words, a read's dates as well. */
  @Override
  public boolean sends(JsonNode args) {
    return definition().sends() || access.offMachine();
  }

  /**
   * The version of the event a change or deletion acts on, as the server holds it now: its ETag
   * and its text (a server without ETags still shows a change in the text).
   */
  protected List<String> eventVersion(JsonNode args) {
    if (access.unavailable().isPresent()) return List.of(FileStamp.unmatched());
    try {
      return List.of(version(find(access.dav(), args.path("event_id").asText())));
    } catch (ToolFailure e) {
      // Not there is a version the dialog can show; not read is none, and approves nothing.
      return List.of(
          e.error().code().equals(ToolErrorCodes.NOT_FOUND)
              ? VersionStamp.missing(EVENT)
              : FileStamp.unmatched());
    } catch (RuntimeException e) {
      return List.of(FileStamp.unmatched());
    }
  }

  /** Where the event is kept, its ETag and its text: another object with the same text differs. */
  static String version(CalDav.Resource r) {
    return VersionStamp.of(EVENT, r.href() + "\n" + r.etag() + "\n" + r.ics());
  }

  /**
   * The event as the server holds it, and, for a call the user approved, only in the version
   * the dialog showed: changed since, the call is refused and asks again.
   */
  protected static CalDav.Resource approved(CalDav dav, JsonNode args, ToolContext ctx)
      throws ToolFailure {
    CalDav.Resource r = find(dav, args.path("event_id").asText());
    checkApproved(ctx, r);
    return r;
  }

  /**
   * A click approves the version its dialog showed; one approved with none known (a token from
   * before versions were bound) approves none.
   */
  static void checkApproved(ToolContext ctx, CalDav.Resource r) throws ToolFailure {
    String shown = ctx.approvedStamps().get(EVENT);
    boolean differs = shown == null ? ctx.confirmed() : !shown.equals(version(r));
    if (differs) {
      throw new ToolFailure(
          ToolErrorCodes.TOKEN_MISMATCH,
          "the event changed on the calendar after the dialog showed it, so nothing was changed:"
              + " it needs approving again",
          EVENT,
          null);
    }
  }

  /**
   * The object holding the event with this id (its UID), or NOT_FOUND naming the field; read once
   * for a check before a dialog ({@link OneLook}), so that its look, stamp and preview agree.
   */
  protected static CalDav.Resource find(CalDav dav, String eventId) throws ToolFailure {
    return OneLook.of(
        "calendar event " + dav.collection() + " " + eventId,
        CalDav.Resource.class,
        () -> byUid(dav, eventId));
  }

  private static CalDav.Resource byUid(CalDav dav, String eventId) throws ToolFailure {
    return dav.byUid(eventId)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "there is no event with the id \"" + eventId + "\" in the calendar",
            "/event_id",
            null));
  }
}
