package dev.steward.service.tools.calendar;

import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Objects already read, by address and version (ETag): an object whose version is unchanged is
 * the same text, so it is not parsed (nor its events worked out) again. Bounded, least recently
 * used out first. What is kept is only read (a change parses the object afresh).
 */
final class Parsed {

  private static final int MAX = 4096;

  private final Map<String, List<Ics.Shape>> kept = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Ics.Shape>> eldest) {
      return size() > MAX;
    }
  };

  /**
   * The events of every object with one in {@code [from, to)}. Once objects have been read, the
   * calendar is asked for versions only and the text only of objects not read in that version;
   * before, for everything at once (one request either way when nothing changed).
   */
  List<List<Ics.Shape>> inRange(CalDav dav, Instant from, Instant to) throws ToolFailure {
    List<List<Ics.Shape>> out = new ArrayList<>();
    boolean none;
    synchronized (kept) {
      none = kept.isEmpty();
    }
    if (none) return shapes(dav.query(from, to), out);
    List<URI> unread = new ArrayList<>();
    for (CalDav.Version v : dav.versions(from, to)) {
      List<Ics.Shape> known = null;
      if (v.etag() != null) {
        synchronized (kept) {
          known = kept.get(key(v.href(), v.etag()));
        }
      }
      if (known != null) out.add(known);
      else unread.add(v.href());
    }
    java.util.Optional<List<CalDav.Resource>> got = dav.multiget(unread);
    // The server left some unanswered: the whole range, as on the first look.
    if (got.isEmpty()) return shapes(dav.query(from, to), new ArrayList<>());
    return shapes(got.get(), out);
  }

  /** {@code out} with the events of each of these objects added. */
  private List<List<Ics.Shape>> shapes(List<CalDav.Resource> objects, List<List<Ics.Shape>> out)
      throws ToolFailure {
    for (CalDav.Resource r : objects) {
      out.add(of(r));
      ToolContext.checkCancelled();
    }
    return out;
  }

  private static String key(URI href, String etag) {
    return CalDav.canonical(href) + "\n" + etag;
  }

  List<Ics.Shape> of(CalDav.Resource r) throws ToolFailure {
    if (r.etag() == null) return Ics.shapes(Ics.parse(r.ics()));
    String key = key(r.href(), r.etag());
    synchronized (kept) {
      List<Ics.Shape> c = kept.get(key);
      if (c != null) return c;
    }
    List<Ics.Shape> c = Ics.shapes(Ics.parse(r.ics()));
    synchronized (kept) {
      kept.put(key, c);
    }
    return c;
  }
}
