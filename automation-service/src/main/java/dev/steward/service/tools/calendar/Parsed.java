package dev.steward.service.tools.calendar;

import dev.steward.service.tools.ToolFailure;
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

  List<Ics.Shape> of(CalDav.Resource r) throws ToolFailure {
    if (r.etag() == null) return Ics.shapes(Ics.parse(r.ics()));
    String key = r.href() + "\n" + r.etag();
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
