package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.ToolFailure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ingredients the pack knows ({@code ingredients.tsv}, shipped beside it): an
 * {@code ingredient_id} is one of their ids exactly. A name that is not one is refused with the
 * closest known ids listed — for the model to choose from, never chosen for it (seed 001: no fuzzy
 * matching).
 */
final class Catalogue {

  /** One ingredient: its id, display name, other names and shop category. */
  record Ingredient(String id, String name, List<String> aliases, String category) {}

  private static final int SUGGESTIONS = 5;

  private final Map<String, Ingredient> byId;
  private final Map<String, String> idByAlias;

  private Catalogue(Map<String, Ingredient> byId, Map<String, String> idByAlias) {
    this.byId = byId;
    this.idByAlias = idByAlias;
  }

  static Catalogue shipped() {
    try (InputStream in = Catalogue.class.getResourceAsStream("ingredients.tsv")) {
      if (in == null) throw new IllegalStateException("ingredients.tsv is not beside Catalogue");
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException("the ingredient catalogue cannot be read", e);
    }
  }

  static Catalogue read(InputStream in) throws IOException {
    Map<String, Ingredient> byId = new LinkedHashMap<>();
    Map<String, String> idByAlias = new LinkedHashMap<>();
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String header = reader.readLine();
    if (!"id\tname\taliases\tcategory".equals(header)) {
      throw new IOException("ingredients.tsv does not start with its header");
    }
    int lineNo = 1;
    for (String line; (line = reader.readLine()) != null; ) {
      lineNo++;
      String[] f = line.split("\t", -1);
      if (f.length != 4) throw new IOException("ingredients.tsv line " + lineNo + ": 4 fields");
      List<String> aliases = f[2].isEmpty() ? List.of() : List.of(f[2].split(","));
      Ingredient ing = new Ingredient(f[0], f[1], aliases, f[3]);
      if (byId.put(ing.id(), ing) != null) {
        throw new IOException("ingredients.tsv line " + lineNo + ": " + ing.id() + " twice");
      }
      for (String alias : aliases) idByAlias.put(alias, ing.id());
    }
    return new Catalogue(byId, idByAlias);
  }

  /** Every known id, in the catalogue's order. */
  java.util.Collection<String> ids() {
    return java.util.Collections.unmodifiableSet(byId.keySet());
  }

  int size() {
    return byId.size();
  }

  /** The ingredient with this id, or a refusal that lists the closest known ids. */
  Ingredient require(String id, String field) throws ToolFailure {
    Ingredient known = byId.get(id);
    if (known != null) return known;
    List<String> closest = closest(id);
    ObjectNode details = Json.object();
    ArrayNode list = details.putArray("closest");
    closest.forEach(list::add);
    String hint = closest.isEmpty()
        ? "no known ingredient is close to it"
        : "the closest known ids: " + String.join(", ", closest);
    throw Failures.invalid(field, "\"" + id + "\" is not a known ingredient id; " + hint, details);
  }

  /**
   * Known ids close to {@code wanted}: the one it is another name of first, then by edit distance
   * to an id or another name, then ids that contain it or that it contains.
   */
  List<String> closest(String wanted) {
    String w = wanted.toLowerCase(java.util.Locale.ROOT).replace('_', '-').strip();
    Set<String> out = new LinkedHashSet<>();
    String aliased = idByAlias.get(w.replace('-', ' '));
    if (aliased == null) aliased = idByAlias.get(w);
    if (aliased != null) out.add(aliased);
    record Near(String id, int distance) {}
    List<Near> near = new ArrayList<>();
    int limit = Math.max(2, w.length() / 3);
    for (Ingredient ing : byId.values()) {
      int best = distance(w, ing.id());
      for (String alias : ing.aliases())
        best = Math.min(best, distance(w.replace('-', ' '), alias));
      if (best <= limit) near.add(new Near(ing.id(), best));
      else if (w.length() >= 3 && (ing.id().contains(w) || w.contains(ing.id()))) {
        near.add(new Near(ing.id(), limit + 1 + Math.abs(ing.id().length() - w.length())));
      }
    }
    near.sort(Comparator.comparingInt(Near::distance).thenComparing(Near::id));
    for (Near n : near) {
      if (out.size() >= SUGGESTIONS) break;
      out.add(n.id());
    }
    return List.copyOf(out);
  }

  /** Levenshtein distance, capped early: only small distances matter here. */
  static int distance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > 8) return 99;
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) prev[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
