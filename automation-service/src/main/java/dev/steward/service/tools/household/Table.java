package dev.steward.service.tools.household;

import java.util.List;

/**
 * The pack's tables, as the undo log sees them: every write records each row it touched before
 * and after, column by column, and an undo puts the "before" back. The {@code household} column is
 * left out: the database fills it from the connected role and never lets a row change household.
 */
enum Table {
  RECIPE(
      "recipe",
      List.of(
          Column.text("id"),
          Column.text("title"),
          Column.text("live_title"),
          Column.text("ingredients"),
          Column.text("instructions"),
          Column.text("tags"),
          Column.integer("rating"),
          Column.text("notes"),
          Column.instant("created_at"),
          Column.instant("updated_at"),
          Column.instant("deleted_at"),
          Column.bool(Table.FROM_STRANGERS)),
      List.of("title", "ingredients", "instructions", "tags", "notes")),
  MEAL(
      "planner_meal",
      List.of(
          Column.text("id"),
          Column.text("recipe_id"),
          Column.date("meal_date"),
          Column.text("meal_type"),
          Column.instant("created_at"),
          Column.instant("deleted_at")),
      List.of()),
  LIST(
      "grocery_list",
      List.of(
          Column.text("id"),
          Column.text("name"),
          Column.text("live_name"),
          Column.instant("created_at"),
          Column.instant("updated_at"),
          Column.instant("deleted_at"),
          Column.bool(Table.FROM_STRANGERS)),
      List.of("name")),
  ITEM(
      "grocery_item",
      List.of(
          Column.text("id"),
          Column.text("list_id"),
          Column.integer("position"),
          Column.text("ingredient_id"),
          Column.text("name"),
          Column.decimal("quantity"),
          Column.text("unit"),
          Column.text("prep_state"),
          Column.text("source_recipe_ids"),
          Column.bool("checked"),
          Column.instant("created_at"),
          Column.instant("updated_at"),
          Column.instant("deleted_at"),
          Column.bool(Table.FROM_STRANGERS)),
      List.of("name", "unit", "prep_state"));

  /**
   * The column that marks a row whose words a conversation wrote after taking in untrusted
   * content (ADR 42): reading it taints. Only tables with {@link #words} have it.
   */
  static final String FROM_STRANGERS = "from_strangers";

  final String sql;
  final List<Column> columns;
  /** The columns that hold words a reader takes in (names, titles, instructions). */
  final List<String> words;

  Table(String sql, List<Column> columns, List<String> words) {
    this.sql = sql;
    this.columns = columns;
    this.words = words;
  }

  /** Whether rows of this table carry the {@link #FROM_STRANGERS} mark. */
  boolean marked() {
    return !words.isEmpty();
  }

  String columnList() {
    return String.join(", ", columns.stream().map(Column::name).toList());
  }

  static Table named(String name) {
    for (Table t : values()) if (t.sql.equals(name)) return t;
    throw new IllegalArgumentException("no household table " + name);
  }

  /** A column and how its value is held in a row image (always a JSON scalar, compared exactly). */
  record Column(String name, Kind kind) {
    static Column text(String name) {
      return new Column(name, Kind.TEXT);
    }

    static Column integer(String name) {
      return new Column(name, Kind.INTEGER);
    }

    static Column decimal(String name) {
      return new Column(name, Kind.DECIMAL);
    }

    static Column bool(String name) {
      return new Column(name, Kind.BOOLEAN);
    }

    static Column date(String name) {
      return new Column(name, Kind.DATE);
    }

    static Column instant(String name) {
      return new Column(name, Kind.INSTANT);
    }
  }

  /**
   * How a column's value is held: decimals as their plain text (a JSON number could come back
   * from disk as a binary double), dates and instants as ISO text.
   */
  enum Kind {
    TEXT,
    INTEGER,
    DECIMAL,
    BOOLEAN,
    DATE,
    INSTANT
  }
}
