package dev.steward.app.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.agent.CallState;
import dev.steward.app.agent.CallUpdate;
import dev.steward.app.agent.Conversation;
import dev.steward.app.agent.ProposedCall;
import dev.steward.app.agent.TurnListener;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ChatViewModelTest {

  /** A conversation the test drives by hand through the listener it was given. */
  private static final class Scripted implements Conversation {
    final List<String> sent = new ArrayList<>();
    TurnListener listener;
    boolean stopped;

    @Override
    public CompletableFuture<Void> send(String input, TurnListener l) {
      sent.add(input);
      listener = l;
      return new CompletableFuture<>();
    }

    @Override
    public void stop() {
      stopped = true;
    }

    @Override
    public CompletableFuture<Void> askAgain(
        dev.steward.app.agent.ProposedCall call, TurnListener l) {
      sent.add("ask again " + call.toolName() + " " + call.args());
      listener = l;
      return new CompletableFuture<>();
    }

    @Override
    public CompletableFuture<Void> retry(TurnListener l) {
      sent.add("retry");
      listener = l;
      return new CompletableFuture<>();
    }
  }

  private final List<Runnable> queued = new ArrayList<>();
  private final ChatViewModel chat = new ChatViewModel(queued::add);
  private final Scripted agent = new Scripted();

  private void pump() {
    while (!queued.isEmpty()) queued.remove(0).run();
  }

  @Test
  void nothingIsSentBeforeTheAgentIsAttachedOrWhenTheInputIsBlank() {
    chat.inputProperty().set("hello");
    assertFalse(chat.canSendProperty().get());
    assertFalse(chat.send());
    chat.attach(agent);
    chat.inputProperty().set("   ");
    assertFalse(chat.canSendProperty().get());
    assertFalse(chat.send());
    assertTrue(agent.sent.isEmpty());
  }

  @Test
  void sendingAddsTheUserMessageClearsTheInputAndBlocksASecondSendUntilTheTurnEnds() {
    chat.attach(agent);
    chat.inputProperty().set("  What is in my notes?  ");
    assertTrue(chat.send());
    assertEquals(List.of("What is in my notes?"), agent.sent);
    assertEquals("", chat.inputProperty().get());
    assertTrue(chat.busyProperty().get());
    chat.inputProperty().set("again");
    assertFalse(chat.send());
    chat.stop();
    assertTrue(agent.stopped);
    agent.listener.turnFinished();
    pump();
    assertFalse(chat.busyProperty().get());
    assertTrue(chat.send());
  }

  @Test
  void streamedTokensGrowOneAssistantMessageAndAreCoalesced() {
    chat.attach(agent);
    chat.inputProperty().set("hi");
    chat.send();
    agent.listener.assistantStarted();
    pump();
    assertTrue(chat.thinkingProperty().get(), "thinking until the first word");
    agent.listener.assistantToken("Hel");
    agent.listener.assistantToken("lo");
    agent.listener.assistantToken(" **you**");
    assertEquals(1, queued.size(), "three tokens, one flush scheduled");
    pump();
    agent.listener.assistantFinished();
    pump();
    assertFalse(chat.thinkingProperty().get());
    MessageEntry reply = assertInstanceOf(MessageEntry.class, chat.entries().get(1));
    assertEquals(MessageEntry.Kind.ASSISTANT, reply.kind());
    assertEquals("Hello **you**", reply.text());
    agent.listener.assistantStarted();
    agent.listener.assistantFinished();
    pump();
    assertEquals(2, chat.entries().size(), "an empty answer adds no bubble");
  }

  @Test
  void aCallTakenOutOfTheAnswersTextLeavesOnlyTheWordsOrNoBubble() {
    chat.attach(agent);
    chat.inputProperty().set("hi");
    chat.send();
    agent.listener.assistantStarted();
    agent.listener.assistantToken("Looking.\n<tool_call>{\"name\": \"x\"}</tool_call>");
    agent.listener.assistantFinished();
    agent.listener.assistantRewritten("Looking.");
    pump();
    assertEquals("Looking.", ((MessageEntry) chat.entries().get(1)).text());
    agent.listener.assistantStarted();
    agent.listener.assistantToken("<tool_call>{\"name\": \"x\"}</tool_call>");
    agent.listener.assistantFinished();
    agent.listener.assistantRewritten("");
    pump();
    assertEquals(2, chat.entries().size(), "nothing but a call: no bubble");
  }

  @Test
  void cardsFollowTheirCallsStates() throws Exception {
    chat.attach(agent);
    chat.inputProperty().set("write");
    chat.send();
    ToolDefinition def = new ToolDefinition(
        "files.write_text",
        "w",
        Json.parse("{\"type\":\"object\"}"),
        Json.parse("{}"),
        Risk.MEDIUM,
        Confirmation.IF_DESTRUCTIVE,
        List.of());
    agent.listener.callProposed(new ProposedCall(
        "c1",
        def,
        Json.parse("{\"path\":\"~/Steward/a.txt\",\"content\":\"" + "x".repeat(100) + "\"}")));
    pump();
    CallCard card = chat.card("c1");
    assertEquals(CallState.CHECKING, card.state());
    assertEquals(
        "path: ~/Steward/a.txt, content: 100 chars", card.summaryProperty().get());
    assertEquals(Risk.MEDIUM, card.risk());
    agent.listener.callUpdated(
        new CallUpdate("c1", CallState.WAITING, "needs your confirmation", null, null));
    pump();
    assertEquals(CallState.WAITING, card.state());
    agent.listener.callUpdated(new CallUpdate(
        "c1", CallState.DONE, "", Json.parse("{\"path\":\"b.txt\"}"), "{\"bytes\":3}"));
    pump();
    assertEquals(CallState.DONE, card.state());
    assertEquals("{\"bytes\":3}", card.resultProperty().get());
    assertTrue(card.summaryProperty().get().endsWith("(edited)"));
    assertTrue(card.argumentsProperty().get().contains("b.txt"));
  }

  @Test
  void errorsAndNoticesAppearInTheConversation() {
    chat.attach(agent);
    chat.inputProperty().set("x");
    chat.send();
    agent.listener.error("The model server failed: connection refused");
    agent.listener.notice("Stopped.");
    pump();
    assertEquals(MessageEntry.Kind.ERROR, ((MessageEntry) chat.entries().get(1)).kind());
    assertEquals(MessageEntry.Kind.NOTICE, ((MessageEntry) chat.entries().get(2)).kind());
  }

  @Test
  void aModelFailureOffersRetryWhichAsksAgainWithoutSendingTheMessageTwice() {
    chat.attach(agent);
    chat.inputProperty().set("Plan my week");
    chat.send();
    agent.listener.error("Unknown command");
    pump();
    assertNull(chat.retryableProperty().get(), "only the model's failures are retried");
    agent.listener.modelFailed("The model server failed: connection refused");
    agent.listener.turnFinished();
    pump();
    MessageEntry failure = (MessageEntry) chat.entries().get(2);
    assertEquals(MessageEntry.Kind.ERROR, failure.kind());
    assertSame(failure, chat.retryableProperty().get());
    assertTrue(chat.retry());
    assertEquals(List.of("Plan my week", "retry"), agent.sent);
    assertNull(chat.retryableProperty().get());
    assertTrue(chat.busyProperty().get());
    assertFalse(chat.retry(), "one retry at a time");
    agent.listener.modelFailed("The model server failed: still down");
    agent.listener.turnFinished();
    pump();
    assertSame(chat.entries().get(3), chat.retryableProperty().get());
    chat.inputProperty().set("never mind");
    chat.send();
    assertNull(chat.retryableProperty().get(), "a new message moves on");
    assertFalse(chat.retry());
  }

  @Test
  void anotherConversationIsSearchedAgainFromItsTop() {
    chat.attach(agent);
    chat.show(List.of(
        new MessageEntry(MessageEntry.Kind.USER, "a"),
        new MessageEntry(MessageEntry.Kind.USER, "b"),
        new MessageEntry(MessageEntry.Kind.USER, "the invoice")));
    chat.openFind();
    chat.findTextProperty().set("invoice");
    assertEquals(2, chat.foundProperty().get());
    chat.show(List.of(new MessageEntry(MessageEntry.Kind.USER, "an invoice, again")));
    assertEquals(0, chat.foundProperty().get());
    assertEquals("1 of 1", chat.findStatusProperty().get());
    chat.show(List.of(new MessageEntry(MessageEntry.Kind.USER, "nothing")));
    assertEquals(-1, chat.foundProperty().get());
    assertEquals("No match", chat.findStatusProperty().get());
  }

  @Test
  void findGoesThroughTheEntriesHoldingTheTextAndRoundAgain() {
    chat.attach(agent);
    chat.inputProperty().set("Where are the Invoices?");
    chat.send();
    agent.listener.notice("Nothing here.");
    agent.listener.error("no invoices found");
    pump();
    chat.openFind();
    assertTrue(chat.findOpenProperty().get());
    chat.findTextProperty().set("invoices");
    assertEquals(0, chat.foundProperty().get(), "ignoring case, the first first");
    assertEquals("1 of 2", chat.findStatusProperty().get());
    chat.findNext();
    assertEquals(2, chat.foundProperty().get());
    assertEquals("2 of 2", chat.findStatusProperty().get());
    chat.findNext();
    assertEquals(0, chat.foundProperty().get(), "round to the first");
    chat.findPrevious();
    assertEquals(2, chat.foundProperty().get());
    chat.findTextProperty().set("receipts");
    assertEquals(-1, chat.foundProperty().get());
    assertEquals("No match", chat.findStatusProperty().get());
    chat.closeFind();
    assertFalse(chat.findOpenProperty().get());
    assertEquals("", chat.findStatusProperty().get());
  }

  @Test
  void anExpiredApprovalCanBeAskedAgainOnceAndOnlyThen() throws Exception {
    chat.attach(agent);
    chat.inputProperty().set("write");
    chat.send();
    ToolDefinition def = new ToolDefinition(
        "files.write_text",
        "w",
        Json.parse("{\"type\":\"object\"}"),
        Json.parse("{}"),
        Risk.MEDIUM,
        Confirmation.IF_DESTRUCTIVE,
        List.of());
    agent.listener.callProposed(new ProposedCall("c1", def, Json.parse("{\"path\":\"a.txt\"}")));
    agent.listener.callUpdated(
        new CallUpdate("c1", CallState.DECLINED, "declined by you", null, null));
    pump();
    CallCard card = chat.card("c1");
    assertFalse(
        card.askAgainOfferedProperty().get(), "a call the user declined is not offered again");
    agent.listener.callUpdated(
        new CallUpdate("c1", CallState.EXPIRED, "TOKEN_EXPIRED: …", null, null));
    agent.listener.turnFinished();
    pump();
    assertTrue(card.askAgainOfferedProperty().get());
    assertTrue(chat.askAgain(card));
    assertEquals(
        "ask again files.write_text {\"path\":\"a.txt\"}",
        agent.sent.get(1),
        "the call as proposed, unchanged");
    assertTrue(chat.busyProperty().get());
    assertFalse(card.askAgainOfferedProperty().get());
    agent.listener.turnFinished();
    pump();
    assertFalse(chat.askAgain(card), "once");
    assertEquals(2, agent.sent.size());
  }
}
