package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.util.ShownText;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A write's changes as its dialog shows them below its sentence, one field a line, as the calendar
 * shows an event: {@code "- "} as it was, {@code "+ "} as it will be, {@code "  "} as it stands.
 * Every value is escaped onto its one line, so a title with a line break cannot add a line of its
 * own, and a long text is cut.
 */
final class ChangeLines {

  private static final String NONE = "(none)";

  /** The most of one value a line shows (instructions and notes can run to pages). */
  private static final int MAX_VALUE = 300;
  /** Code points shown before the first difference of two long values. */
  private static final int CONTEXT = 40;

  private ChangeLines() {}

  /** The lines for {@code changes}, as a dry run made them; reads the recipe a meal names. */
  static String of(Tx tx, List<Tx.Change> changes) throws SQLException {
    StringBuilder b = new StringBuilder();
    // A list before its items: the list a push goes into heads what it adds.
    List<Tx.Change> ordered = new ArrayList<>(changes);
    ordered.sort(java.util.Comparator.comparing(Tx.Change::table));
    for (Tx.Change c : ordered) {
      ObjectNode before = c.before();
      ObjectNode after = c.after();
      switch (c.table()) {
        case RECIPE -> recipe(b, before, after);
        case MEAL -> meal(b, tx, before, after);
        case LIST -> {
          if (before == null) line(b, '+', "grocery list", after.path("name").asText());
          else
            pair(
                b,
                "grocery list",
                before.path("name").asText(),
                after.path("name").asText());
        }
        case ITEM -> {
          if (before == null) line(b, '+', "item", item(after));
          else pair(b, "item", item(before), item(after));
        }
      }
    }
    return b.toString();
  }

  private static void recipe(StringBuilder b, @Nullable ObjectNode before, ObjectNode after) {
    if (before == null) {
      line(b, '+', "recipe", after.path("title").asText());
      line(b, '+', "ingredients", ingredients(after));
      for (String field : List.of("instructions", "tags", "rating", "notes")) {
        String v = value(after, field);
        if (!v.equals(NONE)) line(b, '+', field, v);
      }
      return;
    }
    pair(b, "recipe", before.path("title").asText(), after.path("title").asText());
    pair(b, "ingredients", ingredients(before), ingredients(after));
    for (String field : List.of("instructions", "tags", "rating", "notes")) {
      String was = value(before, field);
      String will = value(after, field);
      if (!was.equals(will)) pair(b, field, was, will);
    }
  }

  private static void meal(StringBuilder b, Tx tx, @Nullable ObjectNode before, ObjectNode after)
      throws SQLException {
    Optional<ObjectNode> recipe = tx.row(Table.RECIPE, after.path("recipe_id").asText(), false);
    String said =
        recipe.map(r -> r.path("title").asText()).orElse("(a recipe no longer there)") + " on "
            + after.path("meal_date").asText() + " (" + after.path("meal_type").asText() + ")";
    if (before == null) line(b, '+', "meal", said);
    else if (before.path("deleted_at").isNull() && !after.path("deleted_at").isNull())
      line(b, '-', "meal", said);
    else line(b, ' ', "meal", said);
  }

  private static String item(ObjectNode row) {
    String prep =
        row.path("prep_state").isNull() ? "" : " (" + row.path("prep_state").asText() + ")";
    return (row.path("checked").asBoolean() ? "[x] " : "[ ] ")
        + row.path("quantity").asText() + " " + row.path("unit").asText() + " "
        + row.path("name").asText() + prep;
  }

  private static String ingredients(ObjectNode recipe) {
    List<String> out = new ArrayList<>();
    for (JsonNode ing : Recipes.parse(recipe.path("ingredients").asText())) {
      JsonNode prep = ing.path("prep_state");
      out.add(ing.path("quantity").asText() + " " + ing.path("unit").asText() + " "
          + ing.path("ingredient_id").asText()
          + (prep.isNull() || prep.isMissingNode() ? "" : " (" + prep.asText() + ")"));
    }
    return String.join(", ", out);
  }

  private static String value(ObjectNode row, String field) {
    JsonNode v = row.path(field);
    if (v.isNull() || v.isMissingNode()) return NONE;
    if (field.equals("tags")) {
      List<String> tags = new ArrayList<>();
      Recipes.parse(v.asText()).forEach(t -> tags.add(t.asText()));
      return tags.isEmpty() ? NONE : String.join(", ", tags);
    }
    return v.asText();
  }

  private static void pair(StringBuilder b, String field, String was, String will) {
    String before = ShownText.escaped(was);
    String after = ShownText.escaped(will);
    if (was.equals(will)) {
      line(b, ' ', field, before, 0);
      return;
    }
    // Cut at the same place, two long values that differ past it would read the same: both are
    // shown from a little before their first difference.
    int from = 0;
    if (cut(before, 0).equals(cut(after, 0))) {
      int same = 0;
      while (same < before.length()
          && same < after.length()
          && before.charAt(same) == after.charAt(same)) same++;
      from = Math.max(0, before.codePointCount(0, same) - CONTEXT);
    }
    line(b, '-', field, before, from);
    line(b, '+', field, after, from);
  }

  private static void line(StringBuilder b, char sign, String field, String value) {
    line(b, sign, field, ShownText.escaped(value), 0);
  }

  private static void line(StringBuilder b, char sign, String field, String shown, int from) {
    b.append(sign)
        .append(' ')
        .append(field)
        .append(": ")
        .append(cut(shown, from))
        .append('\n');
  }

  /** At most {@link #MAX_VALUE} code points of {@code shown}, from code point {@code from}. */
  private static String cut(String shown, int from) {
    int total = shown.codePointCount(0, shown.length());
    int start = shown.offsetByCodePoints(0, Math.min(from, total));
    String rest = shown.substring(start);
    if (rest.codePointCount(0, rest.length()) > MAX_VALUE) {
      rest = rest.substring(0, rest.offsetByCodePoints(0, MAX_VALUE)) + "…";
    }
    return start > 0 ? "…" + rest : rest;
  }
}
