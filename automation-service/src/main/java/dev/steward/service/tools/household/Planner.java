package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.ToolFailure;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code planner.list_meals}, {@code planner.get_meal}, {@code planner.add_meal}, {@code
 * planner.remove_meal}. Removing a meal marks it deleted; nothing is erased.
 */
final class Planner {

  static final List<String> MEAL_TYPES = List.of("breakfast", "lunch", "dinner");
  private static final long MAX_RANGE_DAYS = 366;

  JsonNode listMeals(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    LocalDate from = Args.date(args, "from");
    LocalDate to = Args.date(args, "to");
    if (to.isBefore(from)) throw Failures.invalid("/to", "to is on or after from");
    if (ChronoUnit.DAYS.between(from, to) >= MAX_RANGE_DAYS) {
      throw Failures.invalid("/to", "a range is at most " + MAX_RANGE_DAYS + " days");
    }
    ArrayNode meals = Json.mapper().createArrayNode();
    for (ObjectNode m : tx.rows(
        Table.MEAL,
        "deleted_at IS NULL AND meal_date >= ? AND meal_date <= ?",
        List.of(from, to),
        "meal_date, meal_type, created_at, id")) {
      meals.add(view(tx, m, false));
    }
    ObjectNode result = Json.object();
    result.set("meals", meals);
    return result;
  }

  JsonNode getMeal(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    LocalDate date = Args.date(args, "date");
    String type = Args.optionalText(args, "meal_type");
    if (type != null) checkType(type);
    ArrayNode meals = Json.mapper().createArrayNode();
    List<Object> params = new ArrayList<>(List.of(date));
    if (type != null) params.add(type);
    for (ObjectNode m : tx.rows(
        Table.MEAL,
        "deleted_at IS NULL AND meal_date = ?" + (type != null ? " AND meal_type = ?" : ""),
        params,
        "meal_type, created_at, id")) {
      meals.add(view(tx, m, true));
    }
    ObjectNode result = Json.object();
    result.put("date", date.toString());
    result.set("meals", meals);
    return result;
  }

  JsonNode addMeal(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    ObjectNode recipe = Recipes.live(tx, Args.text(args, "recipe_id"), "/recipe_id", false);
    tx.shows(recipe);
    LocalDate date = Args.date(args, "date");
    String type = Args.text(args, "meal_type");
    checkType(type);
    ObjectNode row = Json.object();
    row.put("id", UUID.randomUUID().toString());
    row.put("recipe_id", recipe.path("id").asText());
    row.put("meal_date", date.toString());
    row.put("meal_type", type);
    row.put("created_at", tx.now());
    row.putNull("deleted_at");
    tx.insert(Table.MEAL, row);
    String message =
        "Added \"" + recipe.path("title").asText() + "\" to " + date + " (" + type + ")";
    ObjectNode result = Json.object();
    result.put("planner_meal_id", row.path("id").asText());
    result.put("message", message);
    result.put("summary", message);
    return result;
  }

  JsonNode removeMeal(Tx tx, JsonNode args) throws SQLException, ToolFailure {
    String id = Args.text(args, "planner_meal_id");
    var found = tx.row(Table.MEAL, id, true);
    if (found.isEmpty() || !found.get().path("deleted_at").isNull()) {
      throw Failures.notFound("/planner_meal_id", "planned meal", id);
    }
    ObjectNode before = found.get();
    ObjectNode after = before.deepCopy();
    after.put("deleted_at", tx.now());
    tx.update(Table.MEAL, before, after);
    ObjectNode meal = view(tx, before, false);
    ObjectNode result = Json.object();
    result.put("removed", true);
    result.set("meal", meal);
    result.put(
        "summary",
        "removed \"" + meal.path("recipe_title").asText() + "\" from "
            + meal.path("date").asText() + " (" + meal.path("meal_type").asText() + ")");
    return result;
  }

  private static void checkType(String type) throws ToolFailure {
    if (!MEAL_TYPES.contains(type)) {
      throw Failures.invalid(
          "/meal_type",
          "meal_type is one of " + String.join(", ", MEAL_TYPES) + ", not \"" + type + "\"");
    }
  }

  private static ObjectNode view(Tx tx, ObjectNode meal, boolean withIngredients)
      throws SQLException {
    ObjectNode out = Json.object();
    out.put("planner_meal_id", meal.path("id").asText());
    out.put("date", meal.path("meal_date").asText());
    out.put("meal_type", meal.path("meal_type").asText());
    out.put("recipe_id", meal.path("recipe_id").asText());
    var recipe = tx.row(Table.RECIPE, meal.path("recipe_id").asText(), false);
    if (recipe.isPresent()) tx.shows(recipe.get());
    out.put("recipe_title", recipe.map(r -> r.path("title").asText()).orElse(""));
    if (withIngredients && recipe.isPresent()) {
      out.set("ingredients", Recipes.view(recipe.get()).get("ingredients"));
    }
    return out;
  }
}
