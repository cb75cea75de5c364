package dev.steward.protocol.util;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Cancels that overtook their calls: kept a short while, so that the call stops as it begins.
 * Bounded per client ({@code scope}: a connection, an MCP session), oldest first out, so that a
 * client that cancels calls it never makes displaces only its own; and bounded in all, oldest first
 * out again, so that many clients together cannot grow it either. A cancel overtakes its call by
 * moments: a flood under scopes made up for it (a session header is the client's to write) would
 * have to push out thousands in those moments to lose another client's, where refusing the newest
 * once full would lose every cancel after the flood's.
 */
public final class EarlyCancels {

  private final int perScope;
  private final int total;
  private final long keptNanos;
  private final LongSupplier clock;
  /** Per scope, its cancels by key, oldest first, with when each came. */
  private final Map<String, LinkedHashMap<String, Long>> byScope = new HashMap<>();

  private int size;

  public EarlyCancels(int perScope, int total, java.time.Duration kept) {
    this(perScope, total, kept, System::nanoTime);
  }

  EarlyCancels(int perScope, int total, java.time.Duration kept, LongSupplier clock) {
    this.perScope = perScope;
    this.total = total;
    this.keptNanos = kept.toNanos();
    this.clock = clock;
  }

  /** Keeps the cancel of {@code key}, a call of {@code scope}'s that has not begun. */
  public synchronized void add(String scope, String key) {
    long now = clock.getAsLong();
    if (size >= total) sweep(now);
    if (size >= total) dropOldest();
    // Looked up after the sweep, which removes a scope left empty.
    LinkedHashMap<String, Long> mine = byScope.computeIfAbsent(scope, s -> new LinkedHashMap<>());
    expire(mine, now);
    if (mine.containsKey(key)) return;
    if (mine.size() >= perScope) {
      Iterator<String> oldest = mine.keySet().iterator();
      oldest.next();
      oldest.remove();
      size--;
    }
    mine.put(key, now);
    size++;
  }

  /** Whether {@code key} was cancelled before it began (and not long ago); forgets it. */
  public synchronized boolean take(String scope, String key) {
    if (size == 0) return false;
    LinkedHashMap<String, Long> mine = byScope.get(scope);
    if (mine == null) return false;
    Long at = mine.remove(key);
    if (at == null) return false;
    size--;
    if (mine.isEmpty()) byScope.remove(scope);
    return clock.getAsLong() - at <= keptNanos;
  }

  /** Whether {@code key} was cancelled before it began (and not long ago). */
  public synchronized boolean has(String scope, String key) {
    if (size == 0) return false;
    LinkedHashMap<String, Long> mine = byScope.get(scope);
    Long at = mine == null ? null : mine.get(key);
    return at != null && clock.getAsLong() - at <= keptNanos;
  }

  /** The cancels kept now, all clients together. */
  public synchronized int size() {
    return size;
  }

  private void expire(LinkedHashMap<String, Long> mine, long now) {
    Iterator<Long> times = mine.values().iterator();
    while (times.hasNext()) {
      if (now - times.next() <= keptNanos) break; // the rest came later
      times.remove();
      size--;
    }
  }

  /** Forgets the cancel kept longest, whichever client's (the sweep left no scope empty). */
  private void dropOldest() {
    Map.Entry<String, LinkedHashMap<String, Long>> oldestScope = null;
    long oldest = 0;
    for (Map.Entry<String, LinkedHashMap<String, Long>> scope : byScope.entrySet()) {
      long first = scope.getValue().values().iterator().next();
      if (oldestScope == null || first - oldest < 0) {
        oldestScope = scope;
        oldest = first;
      }
    }
    if (oldestScope == null) return;
    LinkedHashMap<String, Long> its = oldestScope.getValue();
    Iterator<String> keys = its.keySet().iterator();
    keys.next();
    keys.remove();
    size--;
    if (its.isEmpty()) byScope.remove(oldestScope.getKey());
  }

  private void sweep(long now) {
    Iterator<LinkedHashMap<String, Long>> scopes = byScope.values().iterator();
    while (scopes.hasNext()) {
      LinkedHashMap<String, Long> mine = scopes.next();
      expire(mine, now);
      if (mine.isEmpty()) scopes.remove();
    }
  }
}
