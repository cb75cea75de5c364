package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextWindowTest {

  private final List<ChatMessage> history = new ArrayList<>(List.of(SystemMessage.from("rules")));

  private void turn(String ask, int resultChars) {
    history.add(UserMessage.from(ask));
    ToolExecutionRequest call = ToolExecutionRequest.builder()
        .id("c" + history.size())
        .name("files__read_text")
        .arguments("{\"path\":\"" + ask + "\"}")
        .build();
    history.add(AiMessage.from(call));
    history.add(ToolExecutionResultMessage.from(
        call,
        "Result of files.read_text:\n<untrusted>\n" + ask + ":" + "x".repeat(resultChars)
            + "\n</untrusted>"));
    history.add(AiMessage.from("About " + ask + "."));
  }

  private static int sum(List<ChatMessage> messages) {
    return messages.stream().mapToInt(ContextWindow::tokens).sum();
  }

  @Test
  void aConversationWithinTheBudgetGoesAsItIs() {
    turn("a", 100);
    ContextWindow.View v = ContextWindow.fit(history, 10_000);
    assertEquals(history, v.messages());
    assertFalse(v.partial());
  }

  @Test
  void earlierResultsAreShortenedFirstOldestFirstSayingHowToReadOn() {
    turn("first", 6000);
    turn("second", 6000);
    turn("third", 6000);
    int budget = sum(history) - 1500;
    ContextWindow.View v = ContextWindow.fit(history, budget);
    assertTrue(v.tokens() <= budget);
    assertEquals(0, v.leftOut());
    String first = ((ToolExecutionResultMessage) v.messages().get(3)).text();
    assertTrue(first.contains("[Result r1 shortened to fit the context: 600 of "), first);
    assertTrue(first.contains("steward__recall with {\"result\": \"r1\", \"from\": 600}"), first);
    assertTrue(first.contains("…\n</untrusted>"), "the untrusted data stays wrapped");
    assertSame(history.get(7), v.messages().get(7), "one was enough: the second stays whole");
    assertSame(history.get(11), v.messages().get(11), "the current turn stays whole");
    assertTrue(
        ((ToolExecutionResultMessage) history.get(3)).text().length() > 6000, "history kept");
  }

  @Test
  void thenTheOldestTurnsAreLeftOutWholeAndTheModelIsTold() {
    for (int i = 1; i <= 30; i++) turn("t" + i, 3000);
    ContextWindow.View v = ContextWindow.fit(history, 3000);
    assertTrue(v.tokens() <= 3000, v.tokens() + " tokens");
    assertTrue(v.leftOut() > 0);
    assertInstanceOf(UserMessage.class, v.messages().get(1), "a turn is left out whole");
    String system = ((SystemMessage) v.messages().get(0)).text();
    assertTrue(system.startsWith("rules\n\n(The conversation's first " + v.leftOut()), system);
    assertTrue(system.contains("r1 to r"), system);
    assertEquals(
        history.get(history.size() - 1), v.messages().get(v.messages().size() - 1), "newest kept");
  }

  @Test
  void aCurrentTurnTooLargeForTheBudgetHasItsResultsShortened() {
    turn("huge", 40_000);
    ContextWindow.View v = ContextWindow.fit(history, 1000);
    assertTrue(v.tokens() <= 1000, v.tokens() + " tokens");
    assertTrue(((ToolExecutionResultMessage) v.messages().get(3)).text().contains("r1 shortened"));
  }

  @Test
  void recallReadsOnInTheFullResultWrappedAsUntrusted() {
    turn("first", 9000);
    String part = Recall.answer(history, "{\"result\": \"r1\", \"from\": 600}", 3000);
    assertTrue(part.startsWith("Characters 600–3600 of "), part);
    assertTrue(part.contains("\n<untrusted>\n"), part);
    assertTrue(part.endsWith("\"from\": 3600}.]"), part);
    String end =
        Recall.answer(history, "\"{\\\"result\\\": \\\"r1\\\", \\\"from\\\": 8900}\"", 3000);
    assertTrue(end.contains("\\u003c/untrusted>"), "the stored wrapper cannot close the new one");
    assertTrue(end.endsWith("[End of result r1.]"), end);
    assertTrue(
        Recall.answer(history, "{\"result\": \"r9\"}", 3000).startsWith("There is no result"));
  }

  @Test
  void aServerRefusingALongRequestIsRecognised() {
    assertTrue(ContextWindow.overflowed(
        "the request exceeds the available context size, try increasing it"));
    assertTrue(ContextWindow.overflowed("This model's maximum context length is 4096 tokens."));
    assertTrue(ContextWindow.overflowed("context_length_exceeded"));
    assertFalse(ContextWindow.overflowed("connection refused"));
  }
}
