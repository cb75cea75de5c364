package dev.steward.service.tools.calendar;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
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
import net.fortuna.ical4j.data.CalendarParserFactory;
import net.fortuna.ical4j.data.ContentHandlerContext;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.Recur;
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
import net.fortuna.ical4j.model.property.RRule;
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

  /**
   * ical4j's default builder looks its factories up and makes a time-zone registry anew for
   * every object; a calendar of 500 events is 500 objects. These are made once.
   */
  private static final ContentHandlerContext FACTORIES = memoized(new ContentHandlerContext());

  private static ContentHandlerContext memoized(ContentHandlerContext defaults) {
    var parameters = List.copyOf(defaults.getParameterFactorySupplier().get());
    var properties = List.copyOf(defaults.getPropertyFactorySupplier().get());
    var components = List.copyOf(defaults.getComponentFactorySupplier().get());
    return new ContentHandlerContext()
        .withParameterFactorySupplier(() -> parameters)
        .withPropertyFactorySupplier(() -> properties)
        .withComponentFactorySupplier(() -> components);
  }

  private Ics() {}

  /**
   * An event made, written, read back and its week expanded, as a first call would; how many
   * occurrences it found (one, unless it failed).
   */
  static int prime() {
    ZoneId zone = ZoneId.of("Europe/Berlin");
    ZonedDateTime start = ZonedDateTime.of(2026, 1, 5, 10, 0, 0, 0, zone);
    Calendar made = create(
        "warm-up@steward.invalid",
        "Warm-up",
        new Times.Span(start, start.plusHours(1), false, zone),
        start.toInstant());
    try {
      Calendar read = parse(write(made));
      return expand(read, start.minusDays(1).toInstant(), start.plusDays(7).toInstant(), zone)
          .size();
    } catch (ToolFailure e) {
      return 0; // the first call reads its own
    }
  }

  static Calendar parse(String ics) throws ToolFailure {
    try {
      return new CalendarBuilder(
              CalendarParserFactory.getInstance().get(),
              FACTORIES,
              TimeZoneRegistryFactory.getInstance().createRegistry())
          .build(new StringReader(withoutKnownZones(ics)));
    } catch (IOException | ParserException | RuntimeException e) {
      // Only the kind of error and where: the parser's own message may quote the event's text.
      String where = e instanceof ParserException p ? " (line " + p.getLineNo() + ")" : "";
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "an event in the calendar is not valid iCalendar" + where + "; it was left out");
    }
  }

  /**
   * The object without the definitions of time zones Java knows by name (Europe/Berlin, or an
   * Outlook name ical4j maps to one). ical4j would rebuild each definition's rules, decades of
   * transitions, for every object it reads — most of the time a calendar takes — and Java's own
   * rules for a named zone are the ones the rest of Steward uses. A zone Java does not know keeps
   * its definition.
   */
  static String withoutKnownZones(String ics) {
    if (!ics.contains("BEGIN:VTIMEZONE")) return ics;
    String[] lines =
        ics.replace("\r\n ", "").replace("\r\n\t", "").replace("\n ", "").split("\r?\n");
    StringBuilder out = new StringBuilder(ics.length());
    List<String> block = null;
    boolean known = false;
    for (String line : lines) {
      if (block == null && line.equalsIgnoreCase("BEGIN:VTIMEZONE")) {
        block = new ArrayList<>();
        known = false;
      }
      if (block == null) {
        out.append(line).append("\r\n");
        continue;
      }
      block.add(line);
      if (line.regionMatches(true, 0, "TZID:", 0, 5))
        known = knownZone(line.substring(5).strip());
      if (line.equalsIgnoreCase("END:VTIMEZONE")) {
        if (!known) block.forEach(l -> out.append(l).append("\r\n"));
        block = null;
      }
    }
    if (block != null) block.forEach(l -> out.append(l).append("\r\n"));
    return out.toString();
  }

  private static boolean knownZone(String tzid) {
    try {
      ZoneId.of(tzid, TimeZoneRegistry.ZONE_ALIASES);
      return true;
    } catch (java.time.DateTimeException e) {
      return false;
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
   * What an object's events are, worked out once per version of the object: a single event's
   * times, or a repeating event's rule with the occurrences moved out of it.
   */
  record Shape(
      String uid,
      String title,
      boolean busy,
      @Nullable ZoneId zone,
      Temporal start,
      Temporal end,
      @Nullable VEvent rule,
      Set<Temporal> moved,
      Recurrences recurrences) {}

  /**
   * The occurrences of a recurring event for the last range asked: a shape is kept per object
   * version, and the same question again (this week's availability, then its events) is not
   * worked out again by the rule engine.
   */
  static final class Recurrences {
    /** More occurrences than this are worked out again when asked: shapes are kept by thousands. */
    static final int MOST_KEPT = 500;

    private @Nullable Instant from;
    private @Nullable Instant to;
    private Set<Period<?>> periods = Set.of();

    synchronized Set<Period<?>> of(VEvent e, Instant from, Instant to) {
      if (from.equals(this.from) && to.equals(this.to)) return periods;
      Set<Period<?>> found = java.util.Collections.unmodifiableSet(
          periods(e, new Period<>(from.atZone(ZoneOffset.UTC), to.atZone(ZoneOffset.UTC))));
      boolean keep = found.size() <= MOST_KEPT;
      this.from = keep ? from : null;
      this.to = keep ? to : null;
      periods = keep ? found : Set.of();
      return found;
    }
  }

  /** The shapes of an object's events; cancelled events have none. */
  static List<Shape> shapes(Calendar calendar) {
    List<VEvent> events = events(calendar);
    Map<String, Set<Temporal>> moved = new HashMap<>();
    for (VEvent e : events) {
      Optional<Temporal> rid = e.getProperty(Property.RECURRENCE_ID).map(p -> (Temporal) dateOf(p));
      Optional<String> uid = uid(e);
      if (rid.isPresent() && uid.isPresent()) {
        moved.computeIfAbsent(uid.get(), k -> new HashSet<>()).add(rid.get());
      }
    }
    List<Shape> shapes = new ArrayList<>();
    for (VEvent e : events) {
      Optional<String> uid = uid(e);
      if (uid.isEmpty() || e.getStartDate().isEmpty() || cancelled(e)) continue;
      boolean override = e.getProperty(Property.RECURRENCE_ID).isPresent();
      boolean repeats = e.getProperty(Property.RRULE).isPresent()
          || e.getProperty(Property.RDATE).isPresent();
      Temporal start = e.getStartDate().get().getDate();
      Temporal end = e.getEndDate(true)
          .map(d -> (Temporal) d.getDate())
          .orElse(start instanceof LocalDate d ? d.plusDays(1) : start);
      shapes.add(new Shape(
          uid.get(),
          e.getProperty(Property.SUMMARY).map(Property::getValue).orElse(""),
          !e.getProperty(Property.TRANSP)
              .map(p -> p.getValue().equalsIgnoreCase("TRANSPARENT"))
              .orElse(false),
          zoneOf(e),
          start,
          end,
          repeats ? e : null,
          override ? Set.of() : Set.copyOf(moved.getOrDefault(uid.get(), Set.of())),
          new Recurrences()));
    }
    return shapes;
  }

  /** The occurrences of an object's events that overlap {@code [from, to)}. */
  static List<Occurrence> expand(Calendar calendar, Instant from, Instant to, ZoneId local) {
    return expand(shapes(calendar), from, to, local);
  }

  /**
   * The occurrences of these events that overlap {@code [from, to)}, in order. Transparent events
   * ("free") are kept but not busy. Times without a zone ("floating") are taken in {@code local}.
   */
  static List<Occurrence> expand(List<Shape> shapes, Instant from, Instant to, ZoneId local) {
    List<Occurrence> found = new ArrayList<>();
    for (Shape shape : shapes) {
      VEvent rule = shape.rule();
      if (rule == null) {
        add(found, shape, shape.start(), shape.end(), from, to, local);
        continue;
      }
      Set<Instant> skip = new HashSet<>();
      shape.moved().forEach(t -> skip.add(instant(t, local)));
      for (Period<?> p : shape.recurrences().of(rule, from, to)) {
        if (!skip.contains(instant(p.getStart(), local))) {
          add(found, shape, p.getStart(), p.getEnd(), from, to, local);
        }
      }
    }
    found.sort(Comparator.comparing((Occurrence o) -> instant(o.start(), local))
        .thenComparing(Occurrence::uid));
    return found;
  }

  private static void add(
      List<Occurrence> found,
      Shape shape,
      Temporal start,
      Temporal end,
      Instant from,
      Instant to,
      ZoneId local) {
    Instant s = instant(start, local);
    Instant e = instant(end, local);
    // Zero-length events (no DTEND) still occupy their instant.
    boolean overlaps = (e.isAfter(from) || (s.equals(e) && !s.isBefore(from))) && s.isBefore(to);
    if (overlaps) {
      found.add(new Occurrence(
          shape.uid(),
          shape.title(),
          start,
          end,
          start instanceof LocalDate,
          shape.busy(),
          shape.zone()));
    }
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

  /**
   * How an object's event repeats, in words ("every 2 weeks, 10 times; 1 occurrence changed
   * apart"), or empty for an event that happens once: a change or deletion acts on all of it.
   */
  static Optional<String> repeats(Calendar calendar, ZoneId local) {
    Optional<VEvent> m = master(calendar);
    if (m.isEmpty()) return Optional.empty();
    Optional<RRule<?>> rule = m.get().getProperty(Property.RRULE);
    boolean dates = m.get().getProperty(Property.RDATE).isPresent();
    if (rule.isEmpty() && !dates) return Optional.empty();
    StringBuilder says = new StringBuilder();
    if (rule.isPresent()) {
      Recur<?> recur = rule.get().getRecur();
      String ly = recur.getFrequency().name().toLowerCase(java.util.Locale.ROOT);
      String unit = ly.equals("daily") ? "day" : ly.substring(0, ly.length() - 2);
      int every = Math.max(1, recur.getInterval());
      says.append(every == 1 ? "every " + unit : "every " + every + " " + unit + "s");
      Temporal until = recur.getUntil();
      if (recur.getCount() > 0) says.append(", ").append(recur.getCount()).append(" times");
      else if (until != null)
        says.append(", until ")
            .append(
                until instanceof LocalDate d
                    ? d
                    : instant(until, local).atZone(local).toLocalDate());
      else says.append(", with no end");
    }
    if (dates) says.append(rule.isPresent() ? ", and on other dates" : "on other dates");
    long apart = events(calendar).stream()
        .filter(e -> e.getProperty(Property.RECURRENCE_ID).isPresent())
        .count();
    if (apart > 0)
      says.append("; ")
          .append(Counted.of(apart, "occurrence", "occurrences"))
          .append(" changed apart");
    return Optional.of(says.toString());
  }

  /**
   * Whether a repeating event has occurrences held apart from its rule: left out (EXDATE), added
   * (RDATE), or changed on their own (an event with a RECURRENCE-ID).
   */
  static boolean heldApart(Calendar calendar) {
    Optional<VEvent> m = master(calendar);
    if (m.isEmpty()) return false;
    return m.get().getProperty(Property.EXDATE).isPresent()
        || m.get().getProperty(Property.RDATE).isPresent()
        || events(calendar).stream()
            .anyMatch(e -> e.getProperty(Property.RECURRENCE_ID).isPresent());
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

  /** The most occurrences of one event expanded for a range (a day by the minute is 1,440). */
  static final int MOST_OCCURRENCES = 5000;

  /** The largest COUNT of a rule that is expanded (a daily event for 270 years). */
  static final int MOST_COUNTED = 100_000;

  /**
   * The periods of one event in the range. A rule that would repeat more than {@link
   * #MOST_OCCURRENCES} times in it (by the second, or an hourly rule listing every minute and
   * second) is cut there: ical4j would hold every occurrence in memory first, and a stranger's
   * invitation could hold millions.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Set<Period<?>> periods(VEvent e, Period<ZonedDateTime> range) {
    Optional<RRule> rule = e.getProperty(Property.RRULE);
    if (rule.isPresent()) {
      Temporal seed = e.getStartDate().get().getDate();
      Recur recur = rule.get().getRecur();
      // A counted rule is walked from its first occurrence, each one held (ical4j does not skip
      // ahead to the range for it): one counted in millions is left out, as an unreadable event.
      if (recur.getCount() > MOST_COUNTED) return Set.of();
      List<Temporal> first = (List<Temporal>) recur
          .getDatesAsStream(
              seed, like(seed, range.getStart()), like(seed, range.getEnd()), MOST_OCCURRENCES + 1)
          .toList();
      if (first.size() > MOST_OCCURRENCES) {
        Temporal end = e.getEndDate(true).map(d -> (Temporal) d.getDate()).orElse(seed);
        Set<Period<?>> cut = new LinkedHashSet<>();
        for (Temporal start : first.subList(0, MOST_OCCURRENCES)) {
          cut.add(new Period(start, shifted(end, seed, start)));
        }
        return cut;
      }
    }
    return new LinkedHashSet<>((Set) e.calculateRecurrenceSet(range));
  }

  /** A range bound in the seed's own kind of time, as ical4j's rule expansion compares them. */
  private static Temporal like(Temporal seed, ZonedDateTime bound) {
    if (seed instanceof LocalDate) return bound.toLocalDate();
    if (seed instanceof LocalDateTime) return bound.toLocalDateTime();
    if (seed instanceof OffsetDateTime) return bound.toOffsetDateTime();
    if (seed instanceof ZonedDateTime z) return bound.withZoneSameInstant(z.getZone());
    return bound;
  }

  /** The end of an occurrence starting at {@code start}: the event's own length after it. */
  private static Temporal shifted(Temporal end, Temporal seed, Temporal start) {
    if (seed instanceof LocalDate s
        && end instanceof LocalDate en
        && start instanceof LocalDate st) {
      return st.plusDays(en.toEpochDay() - s.toEpochDay());
    }
    return start.plus(java.time.Duration.between(seed, end));
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
