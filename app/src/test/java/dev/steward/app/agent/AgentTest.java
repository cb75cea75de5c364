package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.time.Duration;
import java.util.List;
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
    StreamingChatModel model = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        requests.add(request);
        AiMessage answer = script.apply(request);
        if (answer.text() != null)
          handler.onPartialResponse(
              new PartialResponse(answer.text()), new PartialResponseContext(new NoHandle()));
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(answer).build());
      }
    };
    Approver never = r -> new CompletableFuture<>();
    return new Agent(
        () -> new ModelSource.Model("scripted", model), link, never, Duration.ofSeconds(120), 3);
  }

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
  void anUnknownToolNameIsReportedToTheModelNotRun() throws Exception {
    Agent a = agent(r -> requests.size() == 1
        ? AiMessage.from(ToolExecutionRequest.builder()
            .name("files.list_dir")
            .arguments("{}")
            .build())
        : AiMessage.from("ok"));
    a.send("x", listener).get(10, TimeUnit.SECONDS);
    assertTrue(link.executed.isEmpty());
    ToolExecutionResultMessage result = (ToolExecutionResultMessage)
        requests.get(1).messages().get(requests.get(1).messages().size() - 1);
    assertTrue(result.text().contains("no tool named"), result.text());
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
    assertTrue(listener.events.contains("error no model"));
    a.send("/nope", listener).get(10, TimeUnit.SECONDS);
    assertTrue(listener.events.stream().anyMatch(e -> e.startsWith("error Unknown command /nope")));
  }
}
