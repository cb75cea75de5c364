package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.util.Optional;

/** A tool of the pack: unavailable until a calendar is set up, and the event lookup all share. */
abstract class CalendarTool extends BaseTool {

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

  /** The object holding the event with this id (its UID), or NOT_FOUND naming the field. */
  protected static CalDav.Resource find(CalDav dav, String eventId) throws ToolFailure {
    return dav.byUid(eventId)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.NOT_FOUND,
            "there is no event with the id \"" + eventId + "\" in the calendar",
            "/event_id",
            null));
  }
}
