package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.agent.CallState;
import dev.steward.app.chat.CallCard;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import javafx.collections.ListChangeListener;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's "must show": one sentence plans a meal and fills the shopping list, through the
 * window's agent loop, the real service and its household pack (H2, its default), with no dialog,
 * since nothing in it changes or removes what exists. The model reads the ids it needs from the
 * results it was sent, as a real one must: the ids are made by the service.
 */
class HouseholdChatIT {

  private static final String ASK =
      "plan lasagne for Friday dinner and put what it needs on my shopping list";

  private static final LocalDate FRIDAY =
      LocalDate.now().with(TemporalAdjusters.next(DayOfWeek.FRIDAY));

  private FakeOllama ollama;
  private WindowHarness window;

  @AfterEach
  void close() throws Exception {
    if (window != null) window.close();
    if (ollama != null) ollama.close();
  }

  @Test
  void aMealPlannedAndItsIngredientsPushedMergeOnTheListWithoutADialog() throws Exception {
    ollama = new FakeOllama();
    ollama.respondWith(HouseholdChatIT::nextStep);
    ObjectNode settings = Json.object();
    ollama.configure(settings);
    WindowHarness w = WindowHarness.start(settings);
    window = w;
    AtomicInteger dialogs = countDialogs(w);

    w.type(ASK);
    w.waitFor(() -> !w.cards().isEmpty());
    approveUntilTheTurnEnds(w, dialogs);
    assertTrue(dialogs.get() <= 1, dialogs + " dialogs\n" + w.transcript());
    assertEquals(0, dialogs.get(), "no call changes or removes what exists\n" + w.transcript());
    List<CallCard> cards = w.cards();
    assertEquals(
        List.of(
            "recipe.create",
            "planner.add_meal",
            "grocery.create_list",
            "grocery.push_ingredients",
            "grocery.add_item"),
        cards.stream().map(CallCard::tool).toList(),
        w.transcript());
    assertTrue(cards.stream().allMatch(c -> c.state() == CallState.DONE), w.transcript());
    String recipeId = result(cards.get(0)).path("recipe_id").asText();
    String listId = result(cards.get(2)).path("grocery_list_id").asText();
    assertTrue(result(cards.get(4)).path("merged").asBoolean(), cards.get(4).resultProperty().get());

    // The list as the service holds it, read by the user's own command rather than the model.
    w.type("/call grocery.get_list {\"grocery_list_id\":\"" + listId + "\"}");
    w.waitFor(() -> w.cards().size() == 6 && w.cards().get(5).state().finished());
    w.waitForTurnEnd();
    JsonNode list = result(w.cards().get(5));
    assertEquals("Shopping", list.path("name").asText(), list.toString());
    List<JsonNode> items = StreamSupport.stream(list.path("items").spliterator(), false).toList();
    assertEquals(5, items.size(), "ground beef is one line, not two: " + list);
    assertItem(items, "ground-beef", "750", "g", null, recipeId);
    assertItem(items, "lasagne-sheets", "250", "g", null, recipeId);
    assertItem(items, "tomato-passata", "700", "ml", null, recipeId);
    assertItem(items, "onion", "1", "whole", "chopped", recipeId);
    assertItem(items, "mozzarella", "125", "g", null, recipeId);

    for (CallCard card : w.cards()) {
      List<Audit.Row> rows = w.auditRows(card.tool()).stream()
          .filter(r -> card.callId().equals(r.callId()))
          .toList();
      assertTrue(
          rows.stream()
              .anyMatch(r -> "decision".equals(r.kind()) && "allowed".equals(r.decision())),
          card.tool() + " allowed without a token: " + rows);
      assertTrue(
          rows.stream().anyMatch(r -> "completion".equals(r.kind()) && "ok".equals(r.result())),
          card.tool() + " completed: " + rows);
    }
  }

  /** Counts every approval dialog the window opens (each has an Approve button). */
  private static AtomicInteger countDialogs(WindowHarness w) {
    AtomicInteger shown = new AtomicInteger();
    w.robot.interact(() -> Window.getWindows().addListener((ListChangeListener<Window>) change -> {
      while (change.next()) {
        for (Window added : change.getAddedSubList()) {
          if (added.getScene() != null && added.getScene().lookup("#approve") != null)
            shown.incrementAndGet();
        }
      }
    }));
    return shown;
  }

  /**
   * Waits for the turn to end. A dialog is approved rather than left to expire, so an unexpected
   * one shows up in the count instead of as a stalled turn.
   */
  private static void approveUntilTheTurnEnds(WindowHarness w, AtomicInteger dialogs)
      throws Exception {
    int approved = 0;
    while (true) {
      int seen = approved;
      w.waitFor(
          Duration.ofSeconds(90),
          () -> !w.app.chat().busyProperty().get() || dialogs.get() > seen);
      if (dialogs.get() == approved) return;
      w.waitForDialog();
      w.click("#approve");
      approved++;
    }
  }

  private static void assertItem(
      List<JsonNode> items,
      String ingredient,
      String quantity,
      String unit,
      String prep,
      String recipeId) {
    List<JsonNode> lines = items.stream()
        .filter(i -> ingredient.equals(i.path("ingredient_id").asText()))
        .toList();
    assertEquals(1, lines.size(), ingredient + ": " + items);
    JsonNode line = lines.get(0);
    assertEquals(
        0,
        new BigDecimal(quantity).compareTo(line.path("quantity").decimalValue()),
        ingredient + ": " + line);
    assertEquals(unit, line.path("unit").asText(), ingredient + ": " + line);
    assertEquals(
        prep, line.path("prep_state").isNull() ? null : line.path("prep_state").asText(), "" + line);
    assertTrue(line.path("source_recipe_ids").toString().contains(recipeId), line.toString());
    assertEquals(false, line.path("checked").asBoolean(), line.toString());
  }

  private static JsonNode result(CallCard card) throws IOException {
    return Json.parse(card.resultProperty().get());
  }

  /**
   * The model: each step makes one call from the request and the results of this turn so far. A
   * result that is not a success ends the script with the text of it, so a failure reads plainly.
   */
  private static final List<Function<List<JsonNode>, ObjectNode>> STEPS = List.of(
      done -> FakeOllama.call("recipe__create", recipe().toString()),
      done -> FakeOllama.call(
          "planner__add_meal",
          Json.object()
              .put("recipe_id", id(done, 0, "recipe_id"))
              .put("date", FRIDAY.toString())
              .put("meal_type", "dinner")
              .toString()),
      done -> FakeOllama.call("grocery__create_list", "{\"name\":\"Shopping\"}"),
      done -> {
        ObjectNode args = Json.object().put("grocery_list_id", id(done, 2, "grocery_list_id"));
        ArrayNode lines = args.putArray("ingredients");
        for (JsonNode ing : recipe().path("ingredients"))
          lines.add(((ObjectNode) ing.deepCopy()).put("source_recipe_id", id(done, 0, "recipe_id")));
        return FakeOllama.call("grocery__push_ingredients", args.toString());
      },
      // The same ingredient, unit and (no) preparation as a line already there: it must merge.
      done -> FakeOllama.call(
          "grocery__add_item",
          Json.object()
              .put("grocery_list_id", id(done, 2, "grocery_list_id"))
              .put("ingredient_id", "ground-beef")
              .put("quantity", 250)
              .put("unit", "g")
              .toString()));

  private static ObjectNode recipe() {
    ObjectNode r = Json.object().put("title", "Lasagne");
    ArrayNode ings = r.putArray("ingredients");
    ings.addObject().put("ingredient_id", "lasagne-sheets").put("quantity", 250).put("unit", "g");
    ings.addObject().put("ingredient_id", "ground-beef").put("quantity", 500).put("unit", "g");
    ings.addObject().put("ingredient_id", "tomato-passata").put("quantity", 700).put("unit", "ml");
    ings.addObject()
        .put("ingredient_id", "onion")
        .put("quantity", 1)
        .put("unit", "whole")
        .put("prep_state", "chopped");
    ings.addObject().put("ingredient_id", "mozzarella").put("quantity", 125).put("unit", "g");
    r.putArray("tags").add("dinner");
    return r;
  }

  private static String id(List<JsonNode> done, int step, String field) {
    return done.get(step).path(field).asText();
  }

  private static Reply nextStep(JsonNode request) {
    JsonNode messages = request.path("messages");
    List<JsonNode> done = new ArrayList<>();
    for (JsonNode m : messages) {
      String content = m.path("content").asText("");
      if ("user".equals(m.path("role").asText())) done.clear();
      if (!"tool".equals(m.path("role").asText())) continue;
      if (!content.startsWith("Result of ")) return Reply.text("That did not work: " + content);
      done.add(untrusted(content));
    }
    if (done.size() < STEPS.size()) return Reply.calls(STEPS.get(done.size()).apply(done));
    return Reply.text("Lasagne is planned for Friday dinner, and what it needs is on Shopping.");
  }

  /** The JSON between the markers a result is wrapped in. */
  private static JsonNode untrusted(String content) {
    int open = content.indexOf("<untrusted>\n") + "<untrusted>\n".length();
    int close = content.lastIndexOf("\n</untrusted>");
    try {
      return Json.parse(content.substring(open, close));
    } catch (IOException e) {
      throw new IllegalArgumentException(content, e);
    }
  }
}
