package dev.steward.service.tools.household;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
    for (Tool tool :
        HouseholdPack.tools(Catalogue.shipped(), remote, Optional::empty, () -> true)) {
      if (!tool.definition().mutates()) continue;
      assertDoesNotThrow(
          () -> tool.checkNow(Json.object().put("planner_meal_id", "m1"), ctx), tool.name());
    }
    assertFalse(asked.get());
  }
}
