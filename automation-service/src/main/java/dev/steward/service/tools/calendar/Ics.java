package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.CalendarOutputter;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistry;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.CalendarComponent;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.property.DtEnd;
import net.fortuna.ical4j.model.property.DtStamp;
import net.fortuna.ical4j.model.property.DtStart;
import net.fortuna.ical4j.model.property.LastModified;
import net.fortuna.ical4j.model.property.ProdId;
import net.fortuna.ical4j.model.property.Sequence;
import net.fortuna.ical4j.model.property.Summary;
import net.fortuna.ical4j.model.property.Uid;
import net.fortuna.ical4j.model.property.immutable.ImmutableCalScale;
import net.fortuna.ical4j.model.property.immutable.ImmutableVersion;
import org.jspecify.annotations.Nullable;

/**
 * iCalendar objects through ical4j: the events of an object expanded over a range (recurrences,
 * their exceptions and moved instances, time zones kept), and the objects the pack writes.
 */
final class Ics {

  /** One occurrence of an event in a range. */
  record Occurrence(
      String uid,
      String title,
      Temporal start,
      Temporal end,
      boolean allDay,
      boolean busy,
      @Nullable ZoneId zone) {}

  private static final TimeZoneRegistry ZONES =
      TimeZoneRegistryFactory.getInstance().createRegistry();

  private Ics() {}

  static Calendar parse(String ics) throws ToolFailure {
    try {
      return new CalendarBuilder().build(new StringReader(ics));
    } catch (IOException | ParserException | RuntimeException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "an event in the calendar is not valid iCalendar: " + String.valueOf(e.getMessage()));
    }
  }

  static String write(Calendar calendar) {
    StringWriter w = new StringWriter();
    try {
      new CalendarOutputter(false).output(calendar, w);
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
    return w.toString();
  }

  /** The UIDs of the events in an object (an unreadable object has none). */
  static Set<String> uids(String ics) {
    Set<String> uids = new HashSet<>();
    try {
      for (VEvent e : events(parse(ics))) uid(e).ifPresent(uids::add);
    } catch (ToolFailure e) {
      // Not an event anyone can ask for by UID.
    }
    return uids;
  }

  /** The master event of an object: the one without a RECURRENCE-ID. */
  static Optional<VEvent> master(Calendar calendar) {
    return events(calendar).stream()
        .filter(e -> e.getProperty(Property.RECURRENCE_ID).isEmpty())
        .findFirst();
  }

  /**
   * The occurrences of an object's events that overlap {@code [from, to)}, in order. Cancelled
   * events are left out; transparent ones ("free") are kept but not busy. Times without a zone
   * ("floating") are taken in {@code local}.
   */
  static List<Occurrence> expand(Calendar calendar, Instant from, Instant to, ZoneId local) {
    List<VEvent> events = events(calendar);
    Map<String, Set<Instant>> moved = new HashMap<>();
    for (VEvent e : events) {
      Optional<Temporal> rid = e.getProperty(Property.RECURRENCE_ID).map(p -> (Temporal) dateOf(p));
      Optional<String> uid = uid(e);
      if (rid.isPresent() && uid.isPresent()) {
        moved.computeIfAbsent(uid.get(), k -> new HashSet<>()).add(instant(rid.get(), local));
      }
    }
    Period<ZonedDateTime> range =
        new Period<>(from.atZone(ZoneOffset.UTC), to.atZone(ZoneOffset.UTC));
    List<Occurrence> found = new ArrayList<>();
    for (VEvent e : events) {
      Optional<String> uid = uid(e);
      if (uid.isEmpty() || e.getStartDate().isEmpty() || cancelled(e)) continue;
      boolean override = e.getProperty(Property.RECURRENCE_ID).isPresent();
      Set<Instant> skip = override ? Set.of() : moved.getOrDefault(uid.get(), Set.of());
      String title = e.getProperty(Property.SUMMARY).map(Property::getValue).orElse("");
      boolean busy = !e.getProperty(Property.TRANSP)
          .map(p -> p.getValue().equalsIgnoreCase("TRANSPARENT"))
          .orElse(false);
      ZoneId zone = zoneOf(e);
      for (Period<?> p : periods(e, range)) {
        Temporal start = p.getStart();
        Temporal end = p.getEnd();
        if (skip.contains(instant(start, local))) continue;
        Instant s = instant(start, local);
        Instant en = instant(end, local);
        boolean allDay = start instanceof LocalDate;
        // Zero-length events (no DTEND) still occupy their instant.
        if (!(en.isAfter(from) || (s.equals(en) && !s.isBefore(from))) || !s.isBefore(to)) continue;
        found.add(new Occurrence(uid.get(), title, start, end, allDay, busy, zone));
      }
    }
    found.sort(Comparator.comparing((Occurrence o) -> instant(o.start(), local))
        .thenComparing(Occurrence::uid));
    return found;
  }

  /** A new object holding one event, with the time zone it uses. */
  static Calendar create(String uid, String title, Times.Span span, Instant now) {
    VEvent e = new VEvent(start(span), end(span), title);
    e.add(new Uid(uid));
    e.replace(new DtStamp(now));
    Calendar c = new Calendar();
    c.add(new ProdId("-//Steward//Calendar pack//EN"));
    c.add(ImmutableVersion.VERSION_2_0);
    c.add(ImmutableCalScale.GREGORIAN);
    zoneComponent(span).ifPresent(c::add);
    c.add(e);
    return c;
  }

  /** The same object with its master event's title or times changed (a new SEQUENCE). */
  static Calendar change(
      Calendar calendar, @Nullable String title, Times.@Nullable Span span, Instant now)
      throws ToolFailure {
    Calendar copy = parse(write(calendar));
    VEvent e = master(copy)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR, "the calendar object holds no event to change"));
    if (title != null) e.replace(new Summary(title));
    if (span != null) {
      e.getProperty(Property.DURATION).ifPresent(d -> e.remove(d));
      e.replace(new DtStart<>(start(span)));
      e.replace(new DtEnd<>(end(span)));
      Optional<? extends CalendarComponent> tz = zoneComponent(span);
      if (tz.isPresent() && !hasZone(copy, span)) copy.add(tz.get());
    }
    int sequence =
        e.getProperty(Property.SEQUENCE).map(p -> parseInt(p.getValue())).orElse(0);
    e.replace(new Sequence(sequence + 1));
    e.replace(new DtStamp(now));
    e.replace(new LastModified(now));
    return copy;
  }

  /** The span of an object's master event as the pack describes it. */
  static Optional<Times.Span> span(Calendar calendar, ZoneId local) {
    Optional<VEvent> m = master(calendar);
    if (m.isEmpty() || m.get().getStartDate().isEmpty()) return Optional.empty();
    VEvent e = m.get();
    Temporal start = m.get().getStartDate().get().getDate();
    Temporal end = e.getEndDate(true).map(d -> (Temporal) d.getDate()).orElse(start);
    ZoneId zone = zoneOf(e);
    if (start instanceof LocalDate s) {
      LocalDate en = end instanceof LocalDate d ? d : s.plusDays(1);
      return Optional.of(new Times.Span(s, en, true, null));
    }
    ZoneId z = zone != null ? zone : local;
    return Optional.of(new Times.Span(
        Instant.from(asZoned(start, local)).atZone(z),
        Instant.from(asZoned(end, local)).atZone(z),
        false,
        z));
  }

  static String title(Calendar calendar) {
    return master(calendar)
        .flatMap(e -> e.<Property>getProperty(Property.SUMMARY))
        .map(Property::getValue)
        .orElse("");
  }

  static Instant instant(Temporal t, ZoneId local) {
    if (t instanceof LocalDate d) return d.atStartOfDay(local).toInstant();
    if (t instanceof LocalDateTime d) return d.atZone(local).toInstant();
    return Instant.from(t);
  }

  private static ZonedDateTime asZoned(Temporal t, ZoneId local) {
    if (t instanceof ZonedDateTime z) return z;
    if (t instanceof OffsetDateTime o) return o.toZonedDateTime();
    if (t instanceof LocalDateTime d) return d.atZone(local);
    return Instant.from(t).atZone(local);
  }

  private static List<VEvent> events(Calendar calendar) {
    List<VEvent> events = new ArrayList<>();
    for (CalendarComponent c : calendar.getComponents()) {
      if (c instanceof VEvent e) events.add(e);
    }
    return events;
  }

  private static Optional<String> uid(VEvent e) {
    return e.getProperty(Property.UID).map(Property::getValue).filter(v -> !v.isBlank());
  }

  private static boolean cancelled(VEvent e) {
    return e.getProperty(Property.STATUS)
        .map(p -> p.getValue().equalsIgnoreCase("CANCELLED"))
        .orElse(false);
  }

  /**
   * The periods of one event in the range. Rules that repeat by the second or the minute are not
   * expanded (a year of them would be millions of occurrences): their first occurrence stands.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Set<Period<?>> periods(VEvent e, Period<ZonedDateTime> range) {
    Optional<String> rule = e.getProperty(Property.RRULE).map(Property::getValue);
    if (rule.isPresent()
        && (rule.get().contains("FREQ=SECONDLY") || rule.get().contains("FREQ=MINUTELY"))) {
      VEvent first = e.copy();
      first.getProperty(Property.RRULE).ifPresent(r -> first.remove(r));
      return new LinkedHashSet<>((Set) first.calculateRecurrenceSet(range));
    }
    return new LinkedHashSet<>((Set) e.calculateRecurrenceSet(range));
  }

  private static Temporal dateOf(Property p) {
    return ((net.fortuna.ical4j.model.property.DateProperty<?>) p).getDate();
  }

  /** The event's own time zone (DTSTART's TZID) when Java knows it. */
  private static @Nullable ZoneId zoneOf(VEvent e) {
    Optional<String> tzid = e.getProperty(Property.DTSTART)
        .flatMap(p -> p.<Parameter>getParameter(Parameter.TZID))
        .map(Parameter::getValue);
    if (tzid.isEmpty()) return null;
    try {
      return ZoneId.of(tzid.get());
    } catch (java.time.DateTimeException e2) {
      return null;
    }
  }

  private static Temporal start(Times.Span span) {
    return written(span.start(), span.allDay());
  }

  private static Temporal end(Times.Span span) {
    return written(span.end(), span.allDay());
  }

  /** UTC is written as UTC ("Z"), any other zone with its TZID. */
  private static Temporal written(Temporal t, boolean allDay) {
    if (allDay) return t;
    ZonedDateTime z = (ZonedDateTime) t;
    return z.getZone().normalized() instanceof ZoneOffset
        ? z.toInstant().atOffset(ZoneOffset.UTC)
        : z;
  }

  private static Optional<? extends CalendarComponent> zoneComponent(Times.Span span) {
    if (span.allDay() || span.zone() == null || span.zone().normalized() instanceof ZoneOffset) {
      return Optional.empty();
    }
    TimeZone tz = ZONES.getTimeZone(span.zone().getId());
    return tz == null ? Optional.empty() : Optional.of(tz.getVTimeZone());
  }

  private static boolean hasZone(Calendar calendar, Times.Span span) {
    String id = span.zone() == null ? "" : span.zone().getId();
    return calendar.getComponents(Component.VTIMEZONE).stream()
        .anyMatch(c -> ((Component) c)
            .getProperty(Property.TZID)
            .map(Property::getValue)
            .filter(id::equals)
            .isPresent());
  }

  private static int parseInt(String s) {
    try {
      return Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
