package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.method.Deny;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The loop's own rules, with a scripted model; the window tests drive the real Ollama client. */
class AgentTest {

  private final FakeLink link = new FakeLink();
  private final RecordingListener listener = new RecordingListener();
  private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

  private Agent agent(Function<ChatRequest, AiMessage> script) {
    return agent(script, 3);
  }

  private Agent agent(Function<ChatRequest, AiMessage> script, int stepLimit) {
    StreamingChatModel model = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        requests.add(request);
        AiMessage answer = script.apply(request);
        if (answer == DOWN) {
          handler.onError(new java.net.ConnectException("Connection refused"));
          return;
        }
        if (answer.text() != null)
          handler.onPartialResponse(
              new PartialResponse(answer.text()), new PartialResponseContext(new NoHandle()));
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(answer).build());
      }
    };
    Approver never = r -> new CompletableFuture<>();
    return new Agent(
        () -> new ModelSource.Model("scripted", model),
        link,
        never,
        Duration.ofSeconds(120),
        stepLimit);
  }

  /** A script's answer that stands for the model server failing the request. */
  private static final AiMessage DOWN = AiMessage.from("(down)");

  private static final class NoHandle implements StreamingHandle {
    @Override
    public void cancel() {}

    @Override
    public boolean isCancelled() {
      return false;
    }
  }

  private static AiMessage listDir(String path) {
    return AiMessage.from(ToolExecutionRequest.builder()
        .name("files__list_dir")
        .arguments("{\"path\":\"" + path + "\"}")
        .build());
  }

  @Test
  void toolResultsGoBackAsUntrustedDataAndTheAnswerEndsTheTurn() throws Exception {
    Agent a = agent(r -> requests.size() == 1 ? listDir("x") : AiMessage.from("Here it is."));
    a.send("list x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(2, requests.size());
    List<ChatMessage> second = requests.get(1).messages();
    ToolExecutionResultMessage result = (ToolExecutionResultMessage) second.get(second.size() - 1);
    assertTrue(result.text().contains("<untrusted>"), result.text());
    assertEquals("Here it is.", listener.text.toString());
    assertTrue(requests.get(0).toolSpecifications().stream()
        .anyMatch(t -> t.name().equals("files__write_text")));
    assertEquals("done", listener.events.get(listener.events.size() - 1));
  }

  /**
   * With no conversation opened (no history, or a switch refused mid-turn), calls still name one:
   * the service would otherwise keep their taint on the connection, lost when it reconnects.
   */
  @Test
  void callsBeforeAnyConversationIsOpenedStillNameOne() throws Exception {
    Agent a = agent(r -> requests.size() < 3 ? listDir("x") : AiMessage.from("ok"));
    a.send("list x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(2, link.executed.size());
    String first = link.executed.get(0).conversationId();
    assertTrue(first != null && !first.isBlank(), String.valueOf(first));
    assertEquals(first, link.executed.get(1).conversationId());
  }

  @Test
  void aRunawayLoopStopsAtTheStepLimit() throws Exception {
    Agent a = agent(r -> listDir("again"));
    a.send("loop", listener).get(10, TimeUnit.SECONDS);
    assertEquals(3, requests.size());
    assertTrue(
        listener.events.stream().anyMatch(e -> e.startsWith("notice Stopped after 3 steps")),
        listener.events.toString());
  }

  @Test
  void anUnknownToolNameIsReportedToTheModelWithTheNearestNamesNotRun() throws Exception {
    Agent a = agent(r -> requests.size() == 1
        ? AiMessage.from(ToolExecutionRequest.builder()
            .name("files.lsit_dir")
            .arguments("{}")
            .build())
        : AiMessage.from("ok"));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertTrue(link.executed.isEmpty());
    ToolExecutionResultMessage result = (ToolExecutionResultMessage)
        requests.get(1).messages().get(requests.get(1).messages().size() - 1);
    assertTrue(
        result
            .text()
            .startsWith(
                "There is no tool named \"files.lsit_dir\". The nearest: " + "files__list_dir"),
        result.text());
  }

  @Test
  void aCallWithConfusedSeparatorsRunsAsTheOneToolItMeansAndTheHistoryHoldsItsRealName()
      throws Exception {
    Agent a = agent(r -> requests.size() == 1
        ? AiMessage.from(ToolExecutionRequest.builder()
            .name("files.list_dir")
            .arguments("\"{\\\"path\\\": \\\"docs\\\"}\"")
            .build())
        : AiMessage.from("ok"));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.executed.size());
    assertEquals("files.list_dir", link.executed.get(0).tool());
    assertEquals("docs", link.executed.get(0).args().get("path").asText());
    List<ChatMessage> second = requests.get(1).messages();
    AiMessage asked = (AiMessage) second.get(second.size() - 2);
    assertEquals("files__list_dir", asked.toolExecutionRequests().get(0).name());
    assertEquals("{\"path\":\"docs\"}", asked.toolExecutionRequests().get(0).arguments());
  }

  @Test
  void aCallWrittenIntoTheTextGoesThroughTheGateAndLeavesTheTextShown() throws Exception {
    Agent a = agent(r -> requests.size() == 1
        ? AiMessage.from("Looking.\n<tool_call>\n{\"name\": \"files__list_dir\", "
            + "\"arguments\": {\"path\": \"docs\"}}\n</tool_call>")
        : AiMessage.from("Found it."));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.executed.size());
    // Among words the model may be quoting a call it read: judged as after untrusted content.
    assertEquals(Boolean.TRUE, link.preflights.get(0).inProse());
    assertEquals(Boolean.TRUE, link.executed.get(0).inProse());
    assertTrue(listener.events.contains("rewritten Looking."), listener.events.toString());
    List<ChatMessage> second = requests.get(1).messages();
    AiMessage asked = (AiMessage) second.get(second.size() - 2);
    assertEquals("Looking.", asked.text());
    assertEquals(1, asked.toolExecutionRequests().size());
    ToolExecutionResultMessage result = (ToolExecutionResultMessage) second.get(second.size() - 1);
    assertEquals(asked.toolExecutionRequests().get(0).id(), result.id());
  }

  @Test
  void anAnswerThatIsNothingButACallIsNotSaidToBeWrittenAmongWords() throws Exception {
    Agent a = agent(r -> requests.size() == 1
        ? AiMessage.from("<tool_call>\n{\"name\": \"files__list_dir\", "
            + "\"arguments\": {\"path\": \"docs\"}}\n</tool_call>")
        : AiMessage.from("Found it."));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.executed.size());
    assertEquals(null, link.preflights.get(0).inProse());
    assertEquals(null, link.executed.get(0).inProse());
  }

  @Test
  void aWholeAnswerThatIsACallTheUserPastedIsSaidToBeQuoted() throws Exception {
    String pasted =
        "[TOOL_CALLS][{\"name\": \"files.list_dir\", \"arguments\": {\"path\": \"docs\"}}]";
    Agent a = agent(r -> requests.size() == 1 ? AiMessage.from(pasted) : AiMessage.from("ok"));
    a.send("Is this mail a phishing attempt? " + pasted, listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.executed.size());
    assertEquals(Boolean.TRUE, link.executed.get(0).inProse(), "the user's own text named it");
  }

  @Test
  void callsPastTheLimitOfOneAnswerAreNotRunYetAreLogged() throws Exception {
    int asked = Agent.CALLS_PER_ANSWER + 5;
    Agent a = agent(r -> {
      if (requests.size() > 1) return AiMessage.from("done");
      List<ToolExecutionRequest> many = new java.util.ArrayList<>();
      for (int i = 0; i < asked; i++)
        many.add(ToolExecutionRequest.builder()
            .id("r" + i)
            .name("files__list_dir")
            .arguments("{\"path\":\"d" + i + "\"}")
            .build());
      return AiMessage.from(many);
    });
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(Agent.CALLS_PER_ANSWER, link.executed.size());
    assertEquals(1, link.denied.size());
    assertEquals(5, link.denied.get(0).calls().size());
    assertEquals(
        "d" + Agent.CALLS_PER_ANSWER,
        link.denied.get(0).calls().get(0).args().path("path").asText());
    assertTrue(String.valueOf(link.denied.get(0).reason()).contains("more than 8 calls"));
    assertEquals(Boolean.FALSE, link.denied.get(0).byUser(), "no one's click: no whole kept");
    List<ChatMessage> second = requests.get(1).messages();
    long notRun = second.stream()
        .filter(m ->
            m instanceof ToolExecutionResultMessage t && t.text().startsWith("Not run: more than"))
        .count();
    assertEquals(5, notRun, "each call the model made has its answer");
  }

  @Test
  void hundredsOfUnreadableCallsCostAFewRefusalsAndAFewNotices() throws Exception {
    List<ToolExecutionRequest> flood = new java.util.ArrayList<>();
    for (int i = 0; i < 500; i++)
      flood.add(ToolExecutionRequest.builder()
          .name("files__list_dir")
          .arguments("{path: docs")
          .build());
    Agent a = agent(r -> requests.size() > 1 ? AiMessage.from("done") : AiMessage.from(flood));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(
        500,
        link.denied.stream().mapToInt(d -> d.calls().size()).sum(),
        "every call the model made is in the log");
    assertTrue(
        link.denied.stream().allMatch(d -> d.calls().size() <= Deny.MAX_CALLS),
        "none past the service's limit");
    assertEquals(1 + 5, link.denied.size(), "one refusal for the 8 taken, 492 past the limit in 5");
    assertTrue(
        link.denied.stream().noneMatch(d -> String.valueOf(d.reason()).startsWith("not run")),
        "the service says \"not run\" itself: " + link.denied.get(0).reason());
    long notices = listener.events.stream().filter(e -> e.startsWith("notice ")).count();
    assertEquals(Agent.MISTAKES_TOLD + 2, notices, listener.events.toString());
    assertTrue(
        listener.events.stream().anyMatch(e -> e.startsWith("notice And 5 other calls")),
        listener.events.toString());
  }

  @Test
  void aRepeatedFailingCallAndTheCallsBesideItAreLoggedAsNotRun() throws Exception {
    AiMessage twice = AiMessage.from(List.of(
        ToolExecutionRequest.builder()
            .name("files__list_dir")
            .arguments("{\"dir\": \"docs\"}")
            .build(),
        ToolExecutionRequest.builder()
            .name("files__list_dir")
            .arguments("{\"path\": \"other\"}")
            .build()));
    Agent a = agent(
        r -> requests.size() <= 2
            ? AiMessage.from(ToolExecutionRequest.builder()
                .name("files__list_dir")
                .arguments("{\"dir\": \"docs\"}")
                .build())
            : requests.size() == 3 ? twice : AiMessage.from("fine"),
        10);
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(2, link.executed.size(), "the third answer's calls are not run");
    assertEquals(1, link.denied.size(), String.valueOf(link.denied));
    Deny.Params logged = link.denied.get(0);
    assertEquals(2, logged.calls().size(), "every call of that answer is in the log");
    assertEquals("files.list_dir", logged.calls().get(0).tool());
    assertEquals("other", logged.calls().get(1).args().path("path").asText());
    assertTrue(String.valueOf(logged.reason()).contains("already failed 2 times"), logged.reason());
    assertEquals(Boolean.FALSE, logged.byUser());
  }

  @Test
  void callsToAnUnknownToolOrWithUnreadableArgumentsAreLoggedAsNotRunByHashOnly() throws Exception {
    // A raw line break in a JSON string: unreadable, and the content is a file's.
    String raw = "{\"path\": \"a.env\", \"content\": \"KEY=sk-live-1\nB=2\"}";
    Agent a = agent(r -> requests.size() > 1
        ? AiMessage.from("done")
        : AiMessage.from(List.of(
            ToolExecutionRequest.builder()
                .name("files__shred\u202e")
                .arguments("{\"path\": \"a\"}")
                .build(),
            ToolExecutionRequest.builder()
                .name("files__write_text")
                .arguments(raw)
                .build())));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(0, link.executed.size());
    assertEquals(2, link.denied.size(), String.valueOf(link.denied));
    Deny.Params unknown = link.denied.get(0);
    assertEquals("files__shred\\u202e", unknown.calls().get(0).tool(), "escaped, as shown");
    assertEquals(
        Set.of("unreadable_arguments_sha256", "chars"), names(unknown.calls().get(0)));
    assertTrue(String.valueOf(unknown.reason()).contains("no tool"), unknown.reason());
    Deny.Params unreadable = link.denied.get(1);
    assertEquals("files.write_text", unreadable.calls().get(0).tool());
    JsonNode logged = unreadable.calls().get(0).args();
    assertEquals(
        Set.of("unreadable_arguments_sha256", "chars"), names(unreadable.calls().get(0)));
    assertFalse(logged.toString().contains("sk-live"), "the text itself never goes to the log");
    assertEquals(
        CanonicalJson.sha256Hex(raw.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        logged.path("unreadable_arguments_sha256").asText());
    assertEquals(raw.length(), logged.path("chars").asInt());
    assertTrue(String.valueOf(unreadable.reason()).contains("not valid JSON"), unreadable.reason());
    assertEquals(Boolean.FALSE, unreadable.byUser());
  }

  @Test
  void anUnquotedValueTheParserQuotesNeverReachesTheLogsReason() throws Exception {
    Agent a = agent(r -> requests.size() > 1
        ? AiMessage.from("done")
        : AiMessage.from(List.of(ToolExecutionRequest.builder()
            .name("files__write_text")
            .arguments("{\"path\": \"a.txt\", \"content\": ghp_A1b2C3d4E5f6G7h8}")
            .build())));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.denied.size(), String.valueOf(link.denied));
    String reason = String.valueOf(link.denied.get(0).reason());
    assertFalse(reason.contains("ghp_"), reason);
    assertTrue(reason.contains("not valid JSON"), reason);
    assertTrue(
        requests.get(1).messages().toString().contains("ghp_A1b2"),
        "the model is told where its JSON broke");
  }

  private static Set<String> names(Deny.Call call) {
    Set<String> out = new java.util.HashSet<>();
    call.args().fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void anAnswerPastTheLongestTakenIsCutOffAndTheTurnEnds() throws Exception {
    Agent a = agent(r -> AiMessage.from("x".repeat(Agent.MAX_ANSWER_CHARS + 1)));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertTrue(
        listener.events.stream().anyMatch(e -> e.startsWith("notice Stopped: the answer ran past")),
        listener.events.toString());
    assertEquals(1, requests.size());
  }

  @Test
  void aCallWhoseArgumentsStreamPastTheLongestAnswerIsCutOffAndNotRun() throws Exception {
    StreamingChatModel endless = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        requests.add(request);
        String piece = "x".repeat(10_000);
        for (int sent = 0; sent <= Agent.MAX_ANSWER_CHARS; sent += piece.length())
          handler.onPartialToolCall(
              dev.langchain4j.model.chat.response.PartialToolCall.builder()
                  .index(0)
                  .id("t1")
                  .name("files__list_dir")
                  .partialArguments(piece)
                  .build(),
              new dev.langchain4j.model.chat.response.PartialToolCallContext(new NoHandle()));
        handler.onCompleteResponse(
            ChatResponse.builder().aiMessage(listDir("x")).build());
      }
    };
    Agent a = new Agent(
        () -> new ModelSource.Model("scripted", endless),
        link,
        r -> new CompletableFuture<>(),
        Duration.ofSeconds(120),
        3);
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertTrue(
        listener.events.stream().anyMatch(e -> e.startsWith("notice Stopped: the answer ran past")),
        listener.events.toString());
    assertEquals(0, link.executed.size());
  }

  @Test
  void theSameFailingCallAskedForAThirdTimeEndsTheTurnWithAMessage() throws Exception {
    Agent a = agent(
        r -> requests.size() <= 3
            ? AiMessage.from(ToolExecutionRequest.builder()
                .name("files__list_dir")
                .arguments("{\"dir\": \"docs\"}")
                .build())
            : AiMessage.from("fine"),
        10);
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(3, requests.size(), "the model is not asked again");
    assertEquals(2, link.executed.size(), "the third ask is not run");
    List<ChatMessage> second = requests.get(1).messages();
    String told = ((ToolExecutionResultMessage) second.get(second.size() - 1)).text();
    assertTrue(
        told.contains("VALIDATION_ERROR: required property 'path' not found (at /path)"), told);
    assertTrue(
        listener.events.stream()
            .anyMatch(e -> e.startsWith("notice Stopped: the assistant asked again for a call that"
                + " had already failed 2 times (files__list_dir)")),
        listener.events.toString());
    a.send("go on", listener).get(10, TimeUnit.SECONDS);
    List<ChatMessage> next = requests.get(3).messages();
    ToolExecutionResultMessage unanswered = (ToolExecutionResultMessage) next.get(next.size() - 2);
    assertTrue(unanswered.text().startsWith("Not run"), unanswered.text());
  }

  @Test
  void aRepeatAfterTheCallWasCorrectedIsNotStopped() throws Exception {
    Agent a = agent(
        r -> switch (requests.size()) {
          case 1, 3 ->
            AiMessage.from(ToolExecutionRequest.builder()
                .name("files__list_dir")
                .arguments("{\"dir\": \"docs\"}")
                .build());
          case 2, 4 -> listDir("docs");
          default -> AiMessage.from("done");
        },
        10);
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertEquals(5, requests.size());
    assertEquals(4, link.executed.size());
    assertTrue(listener.events.stream().noneMatch(e -> e.startsWith("notice Stopped")));
  }

  @Test
  void stopAnswersAnOpenApprovalWithDeclined() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    StreamingChatModel model = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        requests.add(request);
        AiMessage m = requests.size() == 1
            ? AiMessage.from(ToolExecutionRequest.builder()
                .name("files__write_text")
                .arguments("{\"path\":\"a\"}")
                .build())
            : AiMessage.from("fine");
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(m).build());
      }
    };
    Approver waits = r -> {
      asked.countDown();
      return new CompletableFuture<>();
    };
    Agent a =
        new Agent(() -> new ModelSource.Model("m", model), link, waits, Duration.ofSeconds(120), 5);
    CompletableFuture<Void> turn = a.send("write", listener);
    assertTrue(asked.await(10, TimeUnit.SECONDS));
    a.stop();
    turn.get(10, TimeUnit.SECONDS);
    assertTrue(link.executed.isEmpty());
    assertTrue(listener.last.values().stream()
        .allMatch(u -> u.state() == CallState.DECLINED && u.detail().contains("declined")));
  }

  @Test
  void retryAfterAFailedAnswerAsksAgainWithTheMessageOnce() throws Exception {
    Agent a = agent(r -> requests.size() == 1 ? DOWN : AiMessage.from("Monday is free."));
    a.send("When am I free?", listener).get(10, TimeUnit.SECONDS);
    assertTrue(
        listener.events.stream().anyMatch(e -> e.startsWith("modelFailed ")),
        listener.events.toString());
    a.retry(listener).get(10, TimeUnit.SECONDS);
    assertEquals(2, requests.size());
    List<ChatMessage> asked = requests.get(1).messages();
    assertEquals(
        1,
        asked.stream()
            .filter(m -> m instanceof dev.langchain4j.data.message.UserMessage u
                && u.singleText().equals("When am I free?"))
            .count(),
        "the message is in the history once");
    assertTrue(listener.text.toString().endsWith("Monday is free."));
    a.retry(listener).get(10, TimeUnit.SECONDS);
    assertEquals(2, requests.size(), "an answered turn is not asked again");
    assertTrue(listener.events.stream().anyMatch(e -> e.contains("nothing to retry")));
  }

  @Test
  void aMessageAfterOneThatGotNoAnswerJoinsIt() throws Exception {
    Agent a = agent(r -> requests.size() == 1 ? DOWN : AiMessage.from("Both noted."));
    a.send("Book the dentist.", listener).get(10, TimeUnit.SECONDS);
    a.send("And the optician.", listener).get(10, TimeUnit.SECONDS);
    List<ChatMessage> asked = requests.get(1).messages();
    List<String> users = asked.stream()
        .filter(m -> m instanceof dev.langchain4j.data.message.UserMessage)
        .map(m -> ((dev.langchain4j.data.message.UserMessage) m).singleText())
        .toList();
    assertEquals(List.of("Book the dentist.\n\nAnd the optician."), users);
  }

  @Test
  void commandsWorkWithoutAModel() throws Exception {
    Agent a = new Agent(
        () -> {
          throw new ModelUnavailableException("no model");
        },
        link,
        r -> new CompletableFuture<>(),
        Duration.ofSeconds(120),
        5);
    a.send("/tools", listener).get(10, TimeUnit.SECONDS);
    assertTrue(listener.events.stream().anyMatch(e -> e.contains("files.delete (high)")));
    a.send("/call files.list_dir {\"path\":\"x\"}", listener).get(10, TimeUnit.SECONDS);
    assertEquals(1, link.executed.size());
    a.send("hello", listener).get(10, TimeUnit.SECONDS);
    assertTrue(listener.events.contains("modelFailed no model"), "a retry can answer it");
    a.send("/nope", listener).get(10, TimeUnit.SECONDS);
    assertTrue(listener.events.stream().anyMatch(e -> e.startsWith("error Unknown command /nope")));
  }
}
