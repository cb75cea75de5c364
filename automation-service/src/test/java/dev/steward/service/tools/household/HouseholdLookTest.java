package dev.steward.service.tools.household;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.scope.PathScope;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The look before a dialog on a database on another machine would send the call before it. */
class HouseholdLookTest {

  @Test
  void a_database_on_another_machine_is_not_asked_before_the_click() {
    AtomicBoolean asked = new AtomicBoolean();
    HouseholdTool.Source remote = () -> {
      asked.set(true);
      throw new AssertionError("the database was asked before the click");
    };
    ToolContext ctx =
        ToolContext.forCheck(Map.of(), PathScope.of(List.of(), List.of(), Path.of("/tmp")));
    for (Tool tool : HouseholdPack.tools(
        Catalogue.shipped(),
        remote,
        Optional::empty,
        () -> Optional.of("jdbc:postgresql://db.example.org/household"))) {
      if (!tool.definition().mutates()) continue;
      assertDoesNotThrow(
          () -> tool.checkNow(Json.object().put("planner_meal_id", "m1"), ctx), tool.name());
    }
    assertFalse(asked.get());
  }

  @Test
  void a_database_on_another_machine_is_named_in_the_dialog_and_the_row_and_taints() {
    String where = "jdbc:postgresql://db.example.org/household";
    ToolContext ctx =
        ToolContext.forCheck(Map.of(), PathScope.of(List.of(), List.of(), Path.of("/tmp")));
    for (boolean away : List.of(true, false)) {
      for (Tool tool : HouseholdPack.tools(
          Catalogue.shipped(),
          () -> {
            throw new AssertionError("not asked");
          },
          Optional::empty,
          () -> away ? Optional.of(where) : Optional.empty())) {
        Optional<JsonNode> preview = tool.preview(Json.object(), ctx);
        String summary = tool.summarize(Json.object(), Json.object().put("summary", "2 recipes"));
        if (away) {
          assertTrue(preview.orElseThrow().path("says").asText().contains("at " + where + ":"));
          assertEquals("2 recipes (at " + where + ")", summary, tool.name());
          assertTrue(tool.sends(Json.object()), tool.name());
          assertTrue(
              tool.taintSource(Json.object(), ctx).orElseThrow().contains(where),
              "others write its rows, its server its errors: " + tool.name());
        } else {
          if (tool.definition().mutates()) {
            JsonNode shown = preview.orElseThrow();
            assertFalse(shown.has("diff"), "the agent's preview shows no rows: " + tool.name());
          } else {
            assertFalse(preview.isPresent(), tool.name());
          }
          assertEquals("2 recipes", summary, tool.name());
          assertFalse(tool.taintSource(Json.object(), ctx).isPresent(), tool.name());
        }
      }
    }
  }
}
