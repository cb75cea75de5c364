package dev.steward.service.tools.calendar;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * The calendar pack (SPEC §13, seed 000): {@code calendar.availability}, {@code calendar.events}
 * and the three changes, on the one calendar the user set up.
 */
public final class CalendarPack implements ToolPack {

  /** The window's "Test connection": {@code {ok, calendar?, problem?}}. */
  public static final String CHECK = "calendar.check";

  /** The window's "Find my calendars": {@code {server}} → {@code {calendars: [{url, name?}]}} or {@code {problem}}. */
  public static final String DISCOVER = "calendar.discover";

  private final Clock clock;
  private @org.jspecify.annotations.Nullable CalendarAccess access;

  public CalendarPack() {
    this(Clock.systemUTC());
  }

  CalendarPack(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String name() {
    return "calendar";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    CalendarAccess a = new CalendarAccess(
        context.policy(),
        context.secrets(),
        new OwnEvents(context.data().resolve("calendar")),
        ZoneId::systemDefault);
    access = a;
    return List.of(
        new Availability(a),
        new Events(a),
        new CreateEvent(a, clock),
        new UpdateEvent(a, clock),
        new DeleteEvent(a));
  }

  /**
   * ical4j's start (its factories and zone registry, ~0.4 s in a JVM of its own) and the XML
   * reader's, on an event made here — only when a calendar is set up, whose first call would pay
   * them.
   */
  @Override
  public void prime() {
    CalendarAccess a = access;
    if (a == null || a.unavailable().isPresent()) return;
    Ics.prime();
    try {
      DavXml.parse(
          "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/warm-up</d:href></d:response></d:multistatus>"
              .getBytes(StandardCharsets.UTF_8));
    } catch (ToolFailure e) {
      // the first call reads its own
    }
  }

  @Override
  public List<PackMethod> methods() {
    return List.of(
        new PackMethod(CHECK, params -> check()),
        new PackMethod(DISCOVER, params -> discover(params.path("server").asText(""))));
  }

  private ObjectNode discover(String server) throws ToolFailure {
    ObjectNode answer = Json.object();
    URI uri;
    try {
      uri = new URI(server.strip());
    } catch (URISyntaxException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "not an address: " + server, "/server", null);
    }
    if (uri.getHost() == null
        || !("https".equalsIgnoreCase(uri.getScheme()) || "http".equalsIgnoreCase(uri.getScheme()))
        || uri.getRawUserInfo() != null) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "the server's address is an http(s) address without a user name in it",
          "/server",
          null);
    }
    CalendarAccess a = access;
    Optional<Discovery> d = a == null ? Optional.empty() : a.discovery(uri);
    if (d.isEmpty()) {
      return answer.put("problem", "set the user name and app password first");
    }
    try {
      ArrayNode list = answer.putArray("calendars");
      for (Discovery.Found f : d.get().calendars(uri)) {
        ObjectNode c = list.addObject().put("url", f.url());
        if (f.name() != null) c.put("name", f.name());
      }
      return answer;
    } catch (ToolFailure e) {
      return Json.object().put("problem", e.error().message());
    }
  }

  private ObjectNode check() {
    ObjectNode answer = Json.object();
    CalendarAccess a = access;
    Optional<String> missing =
        a == null ? Optional.of("the calendar pack is not running") : a.unavailable();
    if (missing.isPresent() || a == null) {
      return answer.put("ok", false).put("problem", missing.orElse(""));
    }
    try {
      CalDav.Collection c = a.dav().check();
      if (!c.calendar()) {
        return answer
            .put("ok", false)
            .put(
                "problem",
                "the address is not a calendar (it is a WebDAV folder without events):"
                    + " give the address of the calendar itself");
      }
      answer.put("ok", true);
      if (c.displayName() != null) answer.put("calendar", c.displayName());
      return answer;
    } catch (ToolFailure e) {
      return answer.put("ok", false).put("problem", e.error().message());
    }
  }
}
