package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** {@code recipe.list}, {@code recipe.get}, {@code recipe.create}, {@code recipe.update}. */
final class Recipes {

  private final Catalogue catalogue;

  Recipes(Catalogue catalogue) {
    this.catalogue = catalogue;
  }

  JsonNode list(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    String tag = Args.optionalText(args, "tag");
    JsonNode minRating = args.get("min_rating");
    String query = Args.optionalText(args, "query");
    ArrayNode recipes = Json.mapper().createArrayNode();
    for (ObjectNode r : tx.rows(Table.RECIPE, "deleted_at IS NULL", List.of(), "title, id")) {
      JsonNode tags = parse(r.path("tags").asText());
      if (tag != null && !contains(tags, tag)) continue;
      if (minRating != null
          && (r.path("rating").isNull() || r.path("rating").asInt() < minRating.asInt())) continue;
      if (query != null
          && !r.path("title")
              .asText()
              .toLowerCase(Locale.ROOT)
              .contains(query.toLowerCase(Locale.ROOT))) continue;
      tx.shows(r);
      ObjectNode out = recipes.addObject();
      out.put("recipe_id", r.path("id").asText());
      out.put("title", r.path("title").asText());
      out.set("tags", tags);
      out.set("rating", r.path("rating"));
    }
    ObjectNode result = Json.object();
    result.set("recipes", recipes);
    return result;
  }

  JsonNode get(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode row = live(tx, Args.text(args, "recipe_id"), "/recipe_id", false);
    tx.shows(row);
    return view(row);
  }

  JsonNode create(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    String title = Args.name(args, "title");
    requireFreeTitle(tx, title, null);
    ObjectNode row = Json.object();
    row.put("id", UUID.randomUUID().toString());
    row.put("title", title);
    row.put("live_title", Args.folded(title));
    row.put("ingredients", Json.write(ingredients(args.path("ingredients"), "/ingredients")));
    row.put("instructions", Args.optionalText(args, "instructions", true));
    row.put("tags", Json.write(tags(args)));
    row.set("rating", rating(args));
    row.put("notes", Args.optionalText(args, "notes", true));
    row.put("created_at", tx.now());
    row.put("updated_at", tx.now());
    row.putNull("deleted_at");
    tx.insert(Table.RECIPE, row);
    ObjectNode result = Json.object();
    result.put("recipe_id", row.path("id").asText());
    result.put("created_at", tx.now());
    result.put("summary", "created the recipe \"" + title + "\"");
    return result;
  }

  JsonNode update(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode before = live(tx, Args.text(args, "recipe_id"), "/recipe_id", true);
    // The answer shows the whole recipe: the words kept as much as the words given.
    tx.shows(before);
    ObjectNode after = before.deepCopy();
    List<String> changed = new ArrayList<>();
    if (args.has("title")) {
      String title = Args.name(args, "title");
      requireFreeTitle(tx, title, before.path("id").asText());
      after.put("title", title);
      after.put("live_title", Args.folded(title));
    }
    if (args.has("ingredients")) {
      after.put("ingredients", Json.write(ingredients(args.get("ingredients"), "/ingredients")));
    }
    if (args.has("instructions"))
      after.put("instructions", Args.optionalText(args, "instructions", true));
    if (args.has("tags")) after.put("tags", Json.write(tags(args)));
    if (args.has("rating")) after.set("rating", rating(args));
    if (args.has("notes")) after.put("notes", Args.optionalText(args, "notes", true));
    for (String field :
        List.of("title", "ingredients", "instructions", "tags", "rating", "notes")) {
      if (!before.path(field).equals(after.path(field))) changed.add(field);
    }
    if (!args.has("title")
        && !args.has("ingredients")
        && !args.has("instructions")
        && !args.has("tags")
        && !args.has("rating")
        && !args.has("notes")) {
      throw Failures.invalid("", "give at least one field to change");
    }
    if (!changed.isEmpty()) after.put("updated_at", tx.now());
    tx.update(Table.RECIPE, before, after);
    ObjectNode result = Json.object();
    result.put("recipe_id", after.path("id").asText());
    result.set("recipe", view(after));
    result.put("updated_at", after.path("updated_at").asText());
    ArrayNode fields = result.putArray("changed");
    changed.forEach(fields::add);
    result.put(
        "summary",
        changed.isEmpty()
            ? "nothing changed in \"" + after.path("title").asText() + "\""
            : "changed " + String.join(", ", changed) + " of \""
                + after.path("title").asText() + "\"");
    return result;
  }

  /** The live recipe with this id (another household's is not there). */
  static ObjectNode live(Tx tx, String id, String field, boolean forUpdate)
      throws SQLException, ToolFailure {
    var row = tx.row(Table.RECIPE, id, forUpdate);
    if (row.isEmpty() || !row.get().path("deleted_at").isNull()) {
      throw Failures.notFound(field, "recipe", id);
    }
    return row.get();
  }

  static ObjectNode view(ObjectNode row) {
    ObjectNode out = Json.object();
    out.put("recipe_id", row.path("id").asText());
    out.put("title", row.path("title").asText());
    ArrayNode ingredients = (ArrayNode) parse(row.path("ingredients").asText());
    for (JsonNode ing : ingredients) {
      ((ObjectNode) ing).set("quantity", Quantity.json(ing.path("quantity").asText()));
    }
    out.set("ingredients", ingredients);
    out.set("instructions", row.path("instructions"));
    out.set("tags", parse(row.path("tags").asText()));
    out.set("rating", row.path("rating"));
    out.set("notes", row.path("notes"));
    out.put("created_at", row.path("created_at").asText());
    out.put("updated_at", row.path("updated_at").asText());
    return out;
  }

  /** Ingredients checked one by one; quantities kept as exact decimal text. */
  private ArrayNode ingredients(JsonNode given, String field) throws ToolFailure {
    if (!given.isArray() || given.isEmpty()) {
      throw Failures.invalid(field, "a recipe has at least one ingredient");
    }
    ArrayNode out = Json.mapper().createArrayNode();
    for (int i = 0; i < given.size(); i++) {
      JsonNode ing = given.get(i);
      String at = field + "/" + i;
      String id = Args.text(ing, "ingredient_id");
      catalogue.require(id, at + "/ingredient_id");
      String unit = Args.text(ing, "unit");
      Units.check(unit, at + "/unit");
      ObjectNode line = out.addObject();
      line.put("ingredient_id", id);
      line.put("quantity", Quantity.text(Quantity.of(ing.path("quantity"), at + "/quantity")));
      line.put("unit", unit);
      line.put("prep_state", Args.prep(ing, at));
    }
    return out;
  }

  /**
   * A rating as the integer it is: a schema takes 4.0 for an integer, and a row image must hold
   * what the database gives back.
   */
  private static JsonNode rating(JsonNode args) {
    JsonNode v = args.path("rating");
    return v.isNumber()
        ? com.fasterxml.jackson.databind.node.IntNode.valueOf(v.intValue())
        : Json.mapper().nullNode();
  }

  private static ArrayNode tags(JsonNode args) throws ToolFailure {
    ArrayNode out = Json.mapper().createArrayNode();
    JsonNode tags = args.path("tags");
    java.util.Set<String> seen = new java.util.LinkedHashSet<>();
    int i = 0;
    for (JsonNode t : tags)
      seen.add(Args.plain(t.asText(), "/tags/" + i++, false).strip());
    seen.forEach(out::add);
    return out;
  }

  private static void requireFreeTitle(
      Tx tx, String title, @org.jspecify.annotations.Nullable String self)
      throws SQLException, ToolFailure {
    for (ObjectNode other :
        tx.rows(Table.RECIPE, "live_title = ?", List.of(Args.folded(title)), "id")) {
      if (!other.path("id").asText().equals(self)) {
        throw Failures.exists("/title", "a recipe titled \"" + title + "\" exists already");
      }
    }
  }

  private static boolean contains(JsonNode array, String value) {
    for (JsonNode v : array) if (v.asText().equals(value)) return true;
    return false;
  }

  static JsonNode parse(String json) {
    try {
      return Json.mapper()
          .reader()
          .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("a stored JSON column cannot be read", e);
    }
  }
}
