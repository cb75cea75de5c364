package dev.steward.service.tools.household;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Seed 001's ingredient aggregation, as a pure function: lines merge only when ingredient, unit
 * and preparation all match (an absent preparation matches only an absent one); quantities add
 * exactly; units are never converted. Incoming lines with one key add up first, so the totals do
 * not depend on the order of a batch.
 */
final class Aggregation {

  private Aggregation() {}

  /** What makes two lines the same shopping need. */
  record Key(String ingredientId, String unit, @Nullable String prepState) {}

  record Incoming(Key key, BigDecimal quantity, String sourceRecipeId) {}

  /** An unchecked item already on the list that a line with its key merges into. */
  record Existing(String itemId, Key key, BigDecimal quantity) {}

  /** An existing item that grows: its quantity before, what was added, the total. */
  record Merge(String itemId, Key key, BigDecimal previous, BigDecimal added, Set<String> sources) {
    BigDecimal total() {
      return previous.add(added);
    }
  }

  /** A new item. */
  record Addition(Key key, BigDecimal quantity, Set<String> sources) {}

  record Plan(List<Merge> merges, List<Addition> additions) {}

  static Plan plan(List<Existing> existing, List<Incoming> incoming) {
    Map<Key, BigDecimal> totals = new LinkedHashMap<>();
    Map<Key, Set<String>> sources = new LinkedHashMap<>();
    for (Incoming in : incoming) {
      totals.merge(in.key(), in.quantity(), BigDecimal::add);
      sources.computeIfAbsent(in.key(), k -> new LinkedHashSet<>()).add(in.sourceRecipeId());
    }
    Map<Key, Existing> first = new LinkedHashMap<>();
    for (Existing e : existing) first.putIfAbsent(e.key(), e);
    List<Merge> merges = new ArrayList<>();
    List<Addition> additions = new ArrayList<>();
    totals.forEach((key, added) -> {
      Existing match = first.get(key);
      Set<String> from = Objects.requireNonNull(sources.get(key));
      if (match != null) merges.add(new Merge(match.itemId(), key, match.quantity(), added, from));
      else additions.add(new Addition(key, added, from));
    });
    return new Plan(List.copyOf(merges), List.copyOf(additions));
  }
}
