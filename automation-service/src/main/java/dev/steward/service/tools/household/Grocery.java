package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolFailure;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * {@code grocery.*}: lists and their items. Every change to a list's items first locks the list
 * row, so two machines pushing into one list take turns and neither's quantities are lost.
 */
final class Grocery {

  /** Recipe ids an item keeps as its sources; later ones still add to its quantity. */
  static final int MAX_SOURCES = 50;

  private final Catalogue catalogue;

  Grocery(Catalogue catalogue) {
    this.catalogue = catalogue;
  }

  JsonNode listLists(Tx tx, JsonNode args) throws SQLException {
    ArrayNode lists = Json.mapper().createArrayNode();
    for (ObjectNode l : tx.rows(Table.LIST, "deleted_at IS NULL", List.of(), "created_at, id")) {
      String id = l.path("id").asText();
      tx.shows(l);
      ObjectNode out = lists.addObject();
      out.put("grocery_list_id", id);
      out.put("name", l.path("name").asText());
      out.put(
          "item_count",
          tx.count(
              "SELECT COUNT(*) FROM grocery_item WHERE list_id = ? AND deleted_at IS NULL",
              List.of(id)));
      out.put(
          "unchecked_count",
          tx.count(
              "SELECT COUNT(*) FROM grocery_item WHERE list_id = ? AND deleted_at IS NULL"
                  + " AND checked = FALSE",
              List.of(id)));
      out.put("created_at", l.path("created_at").asText());
    }
    ObjectNode result = Json.object();
    result.set("lists", lists);
    return result;
  }

  JsonNode getList(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode list = liveList(tx, Args.text(args, "grocery_list_id"), false);
    tx.shows(list);
    ObjectNode result = Json.object();
    result.put("grocery_list_id", list.path("id").asText());
    result.put("name", list.path("name").asText());
    ArrayNode items = result.putArray("items");
    for (ObjectNode item : items(tx, list.path("id").asText())) {
      tx.shows(item);
      items.add(view(item));
    }
    return result;
  }

  JsonNode createList(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    String name = Args.name(args, "name");
    if (!tx.rows(Table.LIST, "live_name = ?", List.of(Args.folded(name)), "id").isEmpty()) {
      throw Failures.exists("/name", "a grocery list named \"" + name + "\" exists already");
    }
    ObjectNode row = Json.object();
    row.put("id", UUID.randomUUID().toString());
    row.put("name", name);
    row.put("live_name", Args.folded(name));
    row.put("created_at", tx.now());
    row.put("updated_at", tx.now());
    row.putNull("deleted_at");
    tx.insert(Table.LIST, row);
    ObjectNode result = Json.object();
    result.put("grocery_list_id", row.path("id").asText());
    result.put("created_at", tx.now());
    result.put("summary", "created the grocery list \"" + name + "\"");
    return result;
  }

  JsonNode pushIngredients(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode list = liveList(tx, Args.text(args, "grocery_list_id"), true);
    tx.shows(list);
    String listId = list.path("id").asText();
    JsonNode given = args.path("ingredients");
    if (!given.isArray() || given.isEmpty()) {
      throw Failures.invalid("/ingredients", "push at least one ingredient");
    }
    List<Aggregation.Incoming> incoming = new ArrayList<>();
    Set<String> recipesSeen = new LinkedHashSet<>();
    for (int i = 0; i < given.size(); i++) {
      JsonNode ing = given.get(i);
      String at = "/ingredients/" + i;
      Aggregation.Key key = key(ing, at);
      BigDecimal quantity = Quantity.of(ing.path("quantity"), at + "/quantity");
      String source = Args.text(ing, "source_recipe_id");
      if (recipesSeen.add(source)) Recipes.live(tx, source, at + "/source_recipe_id", false);
      incoming.add(new Aggregation.Incoming(key, quantity, source));
    }
    List<ObjectNode> current = items(tx, listId);
    List<Aggregation.Existing> existing = new ArrayList<>();
    for (ObjectNode item : current) {
      Aggregation.Key k = keyOf(item);
      if (k != null && !item.path("checked").asBoolean()) {
        existing.add(new Aggregation.Existing(
            item.path("id").asText(), k, new BigDecimal(item.path("quantity").asText())));
      }
    }
    Aggregation.Plan plan = Aggregation.plan(existing, incoming);
    ArrayNode changedItems = Json.mapper().createArrayNode();
    ArrayNode aggregations = Json.mapper().createArrayNode();
    for (Aggregation.Merge m : plan.merges()) {
      ObjectNode before = current.stream()
          .filter(r -> r.path("id").asText().equals(m.itemId()))
          .findFirst()
          .orElseThrow();
      tx.shows(before);
      ObjectNode after = before.deepCopy();
      after.put(
          "quantity",
          Quantity.sum(before.path("quantity").asText(), m.added(), fieldOf(given, m.key())));
      after.put("source_recipe_ids", Json.write(sources(before, m.sources())));
      after.put("updated_at", tx.now());
      tx.update(Table.ITEM, before, after);
      ObjectNode v = view(after);
      v.put("action", "merged");
      changedItems.add(v);
      ObjectNode a = aggregations.addObject();
      a.put("ingredient_id", m.key().ingredientId());
      a.put("unit", m.key().unit());
      a.put("prep_state", m.key().prepState());
      a.set("previous", Quantity.json(Quantity.text(m.previous())));
      a.set("added", Quantity.json(Quantity.text(m.added())));
      a.set("total", Quantity.json(after.path("quantity").asText()));
    }
    int position = nextPosition(current);
    for (Aggregation.Addition add : plan.additions()) {
      Quantity.sum("0", add.quantity(), fieldOf(given, add.key()));
      ObjectNode row = newItem(tx, listId, position++, add.key(), add.quantity(), add.sources());
      tx.insert(Table.ITEM, row);
      ObjectNode v = view(row);
      v.put("action", "added");
      changedItems.add(v);
    }
    touch(tx, list);
    long count = tx.count(
        "SELECT COUNT(*) FROM grocery_item WHERE list_id = ? AND deleted_at IS NULL",
        List.of(listId));
    ObjectNode result = Json.object();
    result.put("grocery_list_id", listId);
    result.set("items", changedItems);
    result.set("aggregations", aggregations);
    result.put("item_count", count);
    result.put(
        "summary",
        "pushed " + Counted.of(given.size(), "ingredient", "ingredients") + " into \""
            + list.path("name").asText() + "\": " + plan.additions().size() + " added, "
            + plan.merges().size() + " merged");
    return result;
  }

  JsonNode addItem(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode list = liveList(tx, Args.text(args, "grocery_list_id"), true);
    tx.shows(list);
    String listId = list.path("id").asText();
    BigDecimal quantity = Quantity.of(args.path("quantity"), "/quantity");
    String unit = Args.text(args, "unit");
    Units.check(unit, "/unit");
    String prep = Args.prep(args, "");
    String ingredientId = Args.optionalText(args, "ingredient_id");
    String name = Args.optionalText(args, "name");
    List<ObjectNode> current = items(tx, listId);
    ObjectNode result = Json.object();
    result.put("grocery_list_id", listId);
    if (ingredientId == null) {
      if (name == null || name.isBlank()) {
        throw Failures.invalid("/name", "name is required when there is no ingredient_id");
      }
      // A free-text item never merges: nothing matches a name but the catalogue's ids.
      ObjectNode row = newItem(tx, listId, nextPosition(current), null, quantity, Set.of());
      row.put("name", name.strip());
      row.put("unit", unit);
      row.put("prep_state", prep);
      tx.insert(Table.ITEM, row);
      result.put("grocery_item_id", row.path("id").asText());
      result.put("merged", false);
      result.set("item", view(row));
    } else {
      if (name != null) {
        throw Failures.invalid("/name", "give either ingredient_id or name, not both");
      }
      catalogue.require(ingredientId, "/ingredient_id");
      Aggregation.Key key = new Aggregation.Key(ingredientId, unit, prep);
      ObjectNode match = null;
      for (ObjectNode item : current) {
        if (key.equals(keyOf(item)) && !item.path("checked").asBoolean()) {
          match = item;
          break;
        }
      }
      ObjectNode row;
      if (match != null) {
        tx.shows(match);
        row = match.deepCopy();
        row.put("quantity", Quantity.sum(match.path("quantity").asText(), quantity, "/quantity"));
        row.put("updated_at", tx.now());
        tx.update(Table.ITEM, match, row);
      } else {
        row = newItem(tx, listId, nextPosition(current), key, quantity, Set.of());
        tx.insert(Table.ITEM, row);
      }
      result.put("grocery_item_id", row.path("id").asText());
      result.put("merged", match != null);
      result.set("item", view(row));
    }
    touch(tx, list);
    JsonNode item = result.path("item");
    String message = (result.path("merged").asBoolean() ? "merged " : "added ")
        + Quantity.text(quantity) + " " + unit + " " + item.path("name").asText() + " into \""
        + list.path("name").asText() + "\"";
    result.put("message", message);
    result.put("summary", message);
    return result;
  }

  JsonNode setChecked(Tx tx, JsonNode args, boolean checked) throws SQLException, ToolFailure {
    String id = Args.text(args, "grocery_item_id");
    var found = tx.row(Table.ITEM, id, false);
    if (found.isEmpty() || !found.get().path("deleted_at").isNull()) {
      throw Failures.notFound("/grocery_item_id", "grocery item", id);
    }
    ObjectNode list = liveList(tx, found.get().path("list_id").asText(), true);
    ObjectNode before = tx.row(Table.ITEM, id, true).orElseThrow();
    tx.shows(list);
    tx.shows(before);
    ObjectNode after = before.deepCopy();
    after.put("checked", checked);
    if (!before.equals(after)) after.put("updated_at", tx.now());
    tx.update(Table.ITEM, before, after);
    ObjectNode result = Json.object();
    result.set("item", view(after));
    result.put(
        "summary",
        (before.path("checked").asBoolean() == checked ? "already " : "")
            + (checked ? "checked " : "unchecked ") + after.path("name").asText() + " on \""
            + list.path("name").asText() + "\"");
    return result;
  }

  private ObjectNode newItem(
      Tx tx,
      String listId,
      int position,
      Aggregation.@Nullable Key key,
      BigDecimal quantity,
      Set<String> sources) {
    ObjectNode row = Json.object();
    row.put("id", UUID.randomUUID().toString());
    row.put("list_id", listId);
    row.put("position", position);
    row.put("ingredient_id", key == null ? null : key.ingredientId());
    row.put("name", key == null ? "" : catalogueName(key.ingredientId()));
    row.put("quantity", Quantity.text(quantity));
    row.put("unit", key == null ? "" : key.unit());
    row.put("prep_state", key == null ? null : key.prepState());
    row.put("source_recipe_ids", Json.write(sources(Json.object(), sources)));
    row.put("checked", false);
    row.put("created_at", tx.now());
    row.put("updated_at", tx.now());
    row.putNull("deleted_at");
    return row;
  }

  private String catalogueName(String id) {
    try {
      return catalogue.require(id, "").name();
    } catch (ToolFailure e) {
      return id;
    }
  }

  private Aggregation.Key key(JsonNode ing, String at) throws ToolFailure {
    String id = Args.text(ing, "ingredient_id");
    catalogue.require(id, at + "/ingredient_id");
    String unit = Args.text(ing, "unit");
    Units.check(unit, at + "/unit");
    return new Aggregation.Key(id, unit, Args.prep(ing, at));
  }

  private static Aggregation.@Nullable Key keyOf(ObjectNode item) {
    JsonNode id = item.path("ingredient_id");
    if (id.isNull()) return null;
    JsonNode prep = item.path("prep_state");
    return new Aggregation.Key(
        id.asText(), item.path("unit").asText(), prep.isNull() ? null : prep.asText());
  }

  /**
   * Where an item's quantity came from: the first recipes, as many as an item keeps (a push of
   * 500 lines from as many recipes would not fit the column).
   */
  private static ArrayNode sources(ObjectNode item, Set<String> more) {
    Set<String> all = new LinkedHashSet<>();
    JsonNode kept = item.path("source_recipe_ids");
    if (kept.isTextual()) for (JsonNode s : Recipes.parse(kept.asText())) all.add(s.asText());
    for (String s : more) if (all.size() < MAX_SOURCES) all.add(s);
    ArrayNode out = Json.mapper().createArrayNode();
    all.forEach(out::add);
    return out;
  }

  /** The quantity field of the first pushed line with this key (where a too-large total began). */
  private static String fieldOf(JsonNode given, Aggregation.Key key) {
    for (int i = 0; i < given.size(); i++) {
      JsonNode l = given.get(i);
      if (l.path("ingredient_id").asText().equals(key.ingredientId())
          && l.path("unit").asText().equals(key.unit())) return "/ingredients/" + i + "/quantity";
    }
    return "/ingredients";
  }

  private static int nextPosition(List<ObjectNode> items) {
    int max = -1;
    for (ObjectNode i : items) max = Math.max(max, i.path("position").asInt());
    return max + 1;
  }

  private static void touch(Tx tx, ObjectNode list) throws SQLException {
    ObjectNode after = list.deepCopy();
    after.put("updated_at", tx.now());
    tx.update(Table.LIST, list, after);
  }

  static ObjectNode liveList(Tx tx, String id, boolean forUpdate) throws SQLException, ToolFailure {
    var row = tx.row(Table.LIST, id, forUpdate);
    if (row.isEmpty() || !row.get().path("deleted_at").isNull()) {
      throw Failures.notFound("/grocery_list_id", "grocery list", id);
    }
    return row.get();
  }

  static List<ObjectNode> items(Tx tx, String listId) throws SQLException {
    return tx.rows(
        Table.ITEM, "list_id = ? AND deleted_at IS NULL", List.of(listId), "position, id");
  }

  static ObjectNode view(ObjectNode item) {
    ObjectNode out = Json.object();
    out.put("grocery_item_id", item.path("id").asText());
    out.set("ingredient_id", item.path("ingredient_id"));
    out.put("name", item.path("name").asText());
    out.set("quantity", Quantity.json(item.path("quantity").asText()));
    out.put("unit", item.path("unit").asText());
    out.set("prep_state", item.path("prep_state"));
    out.put("checked", item.path("checked").asBoolean());
    out.set("source_recipe_ids", Recipes.parse(item.path("source_recipe_ids").asText()));
    Objects.requireNonNull(out);
    return out;
  }
}
