package dev.steward.app.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import javafx.collections.ListChangeListener;
import javafx.stage.Window;
import org.jspecify.annotations.Nullable;
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
    ollama.respondWith(ScriptedCook::respond);
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
    assertTrue(
        result(cards.get(4)).path("merged").asBoolean(),
        cards.get(4).resultProperty().get());

    // What the service holds, read by the user's own commands rather than by the model.
    JsonNode friday = read(
        w,
        "planner.get_meal",
        Json.object().put("date", FRIDAY.toString()).put("meal_type", "dinner"));
    assertEquals(1, friday.path("meals").size(), friday.toString());
    assertEquals(recipeId, friday.at("/meals/0/recipe_id").asText(), friday.toString());
    JsonNode list = read(w, "grocery.get_list", Json.object().put("grocery_list_id", listId));
    assertEquals("Shopping", list.path("name").asText(), list.toString());
    List<JsonNode> items =
        StreamSupport.stream(list.path("items").spliterator(), false).toList();
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
          Duration.ofSeconds(90), () -> !w.app.chat().busyProperty().get() || dialogs.get() > seen);
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
      @Nullable String prep,
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
        prep,
        line.path("prep_state").isNull() ? null : line.path("prep_state").asText(),
        "" + line);
    assertTrue(line.path("source_recipe_ids").toString().contains(recipeId), line.toString());
    assertFalse(line.path("checked").asBoolean(), line.toString());
  }

  /** Runs a read with the window's {@code /call} command and returns its result. */
  private static JsonNode read(WindowHarness w, String tool, ObjectNode args) throws Exception {
    int before = w.cards().size();
    w.type("/call " + tool + " " + args);
    w.waitFor(
        () -> w.cards().size() == before + 1 && w.cards().get(before).state().finished());
    w.waitForTurnEnd();
    CallCard card = w.cards().get(before);
    assertEquals(CallState.DONE, card.state(), w.transcript());
    return result(card);
  }

  private static JsonNode result(CallCard card) throws IOException {
    return Json.parse(card.resultProperty().get());
  }

  /**
   * The scripted model: each answer is the next call of the plan, made from the request it is sent
   * (the ids it needs are in the results of this turn so far, the only place they are). Results
   * may reach it shortened to fit its context, so it finds an id in a result's text, as a model
   * reads it, rather than parsing the JSON. A result that is no success ends the script with its
   * text, so a failure reads plainly in the transcript.
   */
  private static final class ScriptedCook {

    private static final List<Function<List<String>, ObjectNode>> STEPS = List.of(
        done -> FakeOllama.call("recipe__create", recipe().toString()),
        done -> FakeOllama.call(
            "planner__add_meal",
            Json.object()
                .put("recipe_id", id(done.get(0), "recipe_id"))
                .put("date", FRIDAY.toString())
                .put("meal_type", "dinner")
                .toString()),
        done -> FakeOllama.call("grocery__create_list", "{\"name\":\"Shopping\"}"),
        done -> {
          String recipeId = id(done.get(0), "recipe_id");
          ObjectNode args =
              Json.object().put("grocery_list_id", id(done.get(2), "grocery_list_id"));
          ArrayNode lines = args.putArray("ingredients");
          for (JsonNode ing : recipe().path("ingredients"))
            lines.add(((ObjectNode) ing.deepCopy()).put("source_recipe_id", recipeId));
          return FakeOllama.call("grocery__push_ingredients", args.toString());
        },
        // The ingredient, unit and (absent) preparation of a line already there: it must merge.
        done -> FakeOllama.call(
            "grocery__add_item",
            Json.object()
                .put("grocery_list_id", id(done.get(2), "grocery_list_id"))
                .put("ingredient_id", "ground-beef")
                .put("quantity", 250)
                .put("unit", "g")
                .toString()));

    private ScriptedCook() {}

    static Reply respond(JsonNode request) {
      List<String> done = new ArrayList<>();
      for (JsonNode m : request.path("messages")) {
        String role = m.path("role").asText();
        if (role.equals("user")) done.clear();
        if (!role.equals("tool")) continue;
        String content = m.path("content").asText("");
        if (!content.startsWith("Result of ")) return Reply.text("That did not work: " + content);
        done.add(content);
      }
      if (done.size() < STEPS.size()) return Reply.calls(STEPS.get(done.size()).apply(done));
      return Reply.text("Lasagne is planned for Friday dinner, and what it needs is on Shopping.");
    }

    static ObjectNode recipe() {
      ObjectNode r = Json.object().put("title", "Lasagne");
      ArrayNode ings = r.putArray("ingredients");
      ings.addObject()
          .put("ingredient_id", "lasagne-sheets")
          .put("quantity", 250)
          .put("unit", "g");
      ings.addObject().put("ingredient_id", "ground-beef").put("quantity", 500).put("unit", "g");
      ings.addObject()
          .put("ingredient_id", "tomato-passata")
          .put("quantity", 700)
          .put("unit", "ml");
      ings.addObject()
          .put("ingredient_id", "onion")
          .put("quantity", 1)
          .put("unit", "whole")
          .put("prep_state", "chopped");
      ings.addObject().put("ingredient_id", "mozzarella").put("quantity", 125).put("unit", "g");
      r.putArray("tags").add("dinner");
      return r;
    }

    private static String id(String result, String field) {
      Matcher m = Pattern.compile("\"" + field + "\":\"([0-9a-f-]{36})\"").matcher(result);
      if (!m.find()) throw new IllegalStateException("no " + field + " in " + result);
      return m.group(1);
    }
  }
}
