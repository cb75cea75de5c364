package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.steward.protocol.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** 200 turns with large results in a 4,096-token context: every request fits, nothing is lost. */
class LongConversationTest {

  private static final int CONTEXT = 4096;
  private static final Pattern RECALL_HINT =
      Pattern.compile("steward__recall with \\{\"result\": \"(r\\d+)\", \"from\": (\\d+)}");

  @Test
  void everyRequestFitsTheContextAndAnEarlyResultCanStillBeRead() throws Exception {
    FakeLink link = new FakeLink();
    List<ChatRequest> requests = new CopyOnWriteArrayList<>();
    StreamingChatModel model = new StreamingChatModel() {
      @Override
      public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        requests.add(request);
        AiMessage answer = answer(request);
        if (answer.text() != null)
          handler.onPartialResponse(
              new PartialResponse(answer.text()), new PartialResponseContext(new StreamingHandle() {
                @Override
                public void cancel() {}

                @Override
                public boolean isCancelled() {
                  return false;
                }
              }));
        handler.onCompleteResponse(ChatResponse.builder().aiMessage(answer).build());
      }
    };
    Agent agent = new Agent(
        () -> new ModelSource.Model("small", model, CONTEXT),
        link,
        r -> new CompletableFuture<>(),
        Duration.ofSeconds(60),
        5);
    RecordingListener listener = new RecordingListener();
    for (int turn = 1; turn <= 200; turn++) {
      String marker = turn == 1 ? "FIRST-LISTING-MARKER" : "listing " + turn;
      link.results.put(
          "files.list_dir", Json.object().put("entries", marker + " " + "entry.txt ".repeat(900)));
      agent.send("list folder " + turn, listener).get(10, TimeUnit.SECONDS);
    }
    agent.send("What did the very first listing say?", listener).get(10, TimeUnit.SECONDS);

    int budget = CONTEXT
        - Agent.RESERVED_FOR_ANSWER
        - new RemoteTools(FakeLink.definitions()).specificationTokens();
    for (ChatRequest r : requests) {
      int tokens = r.messages().stream().mapToInt(ContextWindow::tokens).sum();
      assertTrue(tokens <= budget, tokens + " tokens in a request; the budget is " + budget);
    }
    assertEquals(200, link.executed.size());
    List<ChatMessage> last = requests.get(requests.size() - 1).messages();
    ToolExecutionResultMessage read = (ToolExecutionResultMessage) last.get(last.size() - 1);
    assertTrue(read.text().contains("FIRST-LISTING-MARKER"), read.text());
    assertTrue(read.text().startsWith("Characters 0–"), read.text());
    String said = listener.text.toString();
    assertTrue(
        said.endsWith("It said: FIRST-LISTING-MARKER"),
        "[" + said.length() + "] " + said.substring(Math.max(0, said.length() - 200)));
  }

  /**
   * A model that lists the folder it is asked about and answers in a word; asked about the first
   * listing, it reads result r1 through the recall tool it is offered and quotes it.
   */
  private static AiMessage answer(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    ChatMessage last = messages.get(messages.size() - 1);
    if (last instanceof UserMessage u) {
      String text = u.singleText();
      if (text.startsWith("What did the very first")) {
        assertTrue(
            request.toolSpecifications().stream().anyMatch(t -> t.name().equals(Recall.NAME)));
        assertTrue(request.messages().get(0).toString().contains("r1 to r"));
        return AiMessage.from(ToolExecutionRequest.builder()
            .id("recall-1")
            .name(Recall.NAME)
            .arguments("{\"result\": \"r1\", \"from\": 0}")
            .build());
      }
      return AiMessage.from(ToolExecutionRequest.builder()
          .id("c-" + messages.size())
          .name("files__list_dir")
          .arguments("{\"path\": \"" + text.substring("list folder ".length()) + "\"}")
          .build());
    }
    ToolExecutionResultMessage result = (ToolExecutionResultMessage) last;
    if (result.text().startsWith("Characters ")) {
      Matcher m = Pattern.compile("FIRST-LISTING-MARKER").matcher(result.text());
      return AiMessage.from(m.find() ? "It said: FIRST-LISTING-MARKER" : "I could not read it.");
    }
    Matcher hint = RECALL_HINT.matcher(result.text());
    return AiMessage.from(hint.find() ? "Shortened, see " + hint.group(1) : "Listed.");
  }
}
