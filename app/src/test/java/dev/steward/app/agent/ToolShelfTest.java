package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The tools a request offers when they do not all fit in a share of a small model's context. */
class ToolShelfTest {

  private static RemoteTools tools(int n) {
    List<ToolDefinition> defs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      defs.add(FakeLink.definition("pack" + (i / 20) + ".tool_" + i, Risk.LOW, Confirmation.NEVER));
    }
    return new RemoteTools(defs);
  }

  private static List<String> names(ToolShelf.Offer offer) {
    return offer.specifications().stream().map(ToolSpecification::name).toList();
  }

  @Test
  void tools_that_fit_are_all_offered_and_nothing_is_shelved() {
    RemoteTools t = tools(5);
    ToolShelf.Offer offer = ToolShelf.offer(t, List.of(), Set.of(), 8192);
    assertEquals(t.specifications(), offer.specifications());
    assertTrue(offer.shelved().isEmpty());
  }

  @Test
  void in_a_small_context_the_offer_keeps_to_its_share_and_names_the_rest_in_one_tool() {
    RemoteTools t = tools(200);
    ToolShelf.Offer offer = ToolShelf.offer(t, List.of(), Set.of(), 8192);
    assertTrue(offer.tokens() <= 8192 * ToolShelf.SHARE + 200, offer.tokens() + " tokens");
    assertFalse(offer.shelved().isEmpty());
    assertTrue(names(offer).contains(ToolShelf.NAME));
    ToolSpecification more = offer.specifications().get(offer.specifications().size() - 1);
    assertTrue(more.description().contains("pack9 (20)"), more.description());
    assertTrue(
        names(offer).contains(t.modelName("pack0.tool_0")), "the service's order comes first");
  }

  @Test
  void a_tool_the_conversation_used_or_opened_is_offered_whatever_its_place() {
    RemoteTools t = tools(200);
    String used = t.modelName("pack9.tool_199");
    List<ChatMessage> history = List.of(
        UserMessage.from("go"),
        AiMessage.from(List.of(
            ToolExecutionRequest.builder().id("1").name(used).arguments("{}").build())));
    Set<String> opened = new LinkedHashSet<>();
    assertTrue(ToolShelf.offer(t, List.of(), opened, 8192).shelved().contains(used));
    assertTrue(names(ToolShelf.offer(t, history, opened, 8192)).contains(used));

    String other = t.modelName("pack7.tool_150");
    String answer = ToolShelf.answer(t, "{\"tools\": [\"" + other + "\", \"no_such\"]}", opened);
    assertTrue(answer.contains(other + " is open"), answer);
    assertTrue(answer.contains("no_such: no such tool"), answer);
    assertEquals(Set.of("pack7.tool_150"), opened);
    assertTrue(ToolShelf.answer(t, "{\"tools\": [\"pack6\"]}", opened).contains("is open"));
    assertTrue(opened.contains("pack6.tool_120"), "a group opens all its tools");
    assertTrue(names(ToolShelf.offer(t, List.of(), opened, 8192)).contains(other));
  }
}
