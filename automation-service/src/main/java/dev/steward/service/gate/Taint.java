package dev.steward.service.gate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which traces have taken in untrusted content, and from where (SPEC §10). Bounded: the oldest
 * traces are forgotten first, and a forgotten trace is treated as tainted when seen again only if
 * it was tainted — so the bound is large enough for any real session.
 */
public final class Taint {

  private static final int MAX_TRACES = 100_000;
  private static final int MAX_SOURCES = 20;

  private final Map<String, List<String>> sources =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<String>> eldest) {
          return size() > MAX_TRACES;
        }
      };

  public synchronized void add(String traceId, String source) {
    List<String> list = sources.computeIfAbsent(traceId, k -> new ArrayList<>());
    if (!list.contains(source) && list.size() < MAX_SOURCES) list.add(source);
  }

  public synchronized List<String> of(String traceId) {
    List<String> list = sources.get(traceId);
    return list == null ? List.of() : List.copyOf(list);
  }
}
