package dev.steward.service.tools.household;

import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The household pack (SPEC §13, seed 001): recipes, the meal planner and grocery lists. Reads are
 * {@code low}; writes are {@code medium} and ask only when they change or remove what exists
 * (updating a recipe, removing a meal, unchecking an item).
 */
public final class HouseholdPack implements ToolPack {

  private final Clock clock;
  private Databases databases = Databases.NONE;

  public HouseholdPack() {
    this(Clock.systemUTC());
  }

  HouseholdPack(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String name() {
    return "household";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    Databases dbs = new Databases(context, clock);
    databases = dbs;
    return tools(Catalogue.shipped(), dbs::current, dbs::unavailable, dbs::remote);
  }

  /** The pack's tools over a database of the caller's choosing. */
  static List<Tool> tools(
      Catalogue catalogue,
      HouseholdTool.Source source,
      Supplier<Optional<String>> unavailable,
      HouseholdTool.Remote remote) {
    Recipes recipes = new Recipes(catalogue);
    Planner planner = new Planner();
    Grocery grocery = new Grocery(catalogue);
    record Spec(String name, boolean destructive, HouseholdTool.Action action) {}
    List<Spec> specs = List.of(
        new Spec("recipe.list", false, recipes::list),
        new Spec("recipe.get", false, recipes::get),
        new Spec("recipe.create", false, recipes::create),
        new Spec("recipe.update", true, recipes::update),
        new Spec("planner.list_meals", false, planner::listMeals),
        new Spec("planner.get_meal", false, planner::getMeal),
        new Spec("planner.add_meal", false, planner::addMeal),
        new Spec("planner.remove_meal", true, planner::removeMeal),
        new Spec("grocery.list_lists", false, grocery::listLists),
        new Spec("grocery.get_list", false, grocery::getList),
        new Spec("grocery.create_list", false, grocery::createList),
        new Spec("grocery.push_ingredients", false, grocery::pushIngredients),
        new Spec("grocery.add_item", false, grocery::addItem),
        new Spec("grocery.check_item", false, (tx, args) -> grocery.setChecked(tx, args, true)),
        new Spec("grocery.uncheck_item", true, (tx, args) -> grocery.setChecked(tx, args, false)));
    return specs.stream()
        .map(s ->
            HouseholdTool.of(s.name(), source, unavailable, remote, s.destructive(), s.action()))
        .toList();
  }

  @Override
  public void close() {
    databases.close();
  }
}
