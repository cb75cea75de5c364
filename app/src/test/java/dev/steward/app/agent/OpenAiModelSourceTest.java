package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.FakeOpenAi;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent with langchain4j's OpenAI client, unchanged, against an OpenAI-compatible stub. */
class OpenAiModelSourceTest {

  private final FakeOpenAi server;
  private final FakeLink link = new FakeLink();
  private final RecordingListener listener = new RecordingListener();

  OpenAiModelSourceTest() throws Exception {
    server = new FakeOpenAi();
  }

  @AfterEach
  void close() {
    server.close();
  }

  private Agent agent(ModelSource source) {
    Approver never = r -> new CompletableFuture<>();
    return new Agent(source, link, never, Duration.ofSeconds(120), 5);
  }

  @Test
  void theFirstListedModelIsUsedAndTheTextStreams() throws Exception {
    server.enqueue(Reply.text("Hel", "lo ", "there."));
    ModelSource source = new OpenAiModelSource(server.url(), null, null, Duration.ofSeconds(5));
    assertEquals(FakeOpenAi.MODEL, source.model().name());
    agent(source).send("hi", listener).get(20, TimeUnit.SECONDS);
    assertEquals("Hello there.", listener.text.toString());
    assertEquals(FakeOpenAi.MODEL, server.chatRequests().get(0).path("model").asText());
    assertTrue(server.chatRequests().get(0).path("stream").asBoolean());
    assertTrue(
        server.chatRequests().get(0).path("tools").toString().contains("files__list_dir"),
        "the tools go with the request");
  }

  @Test
  void parallelToolCallsStreamedInFragmentsEachGoThroughTheGate() throws Exception {
    server.enqueue(
        Reply.calls(
            FakeOllama.call("files__list_dir", "{\"path\":\"a\"}"),
            FakeOllama.call("files__list_dir", "{\"path\":\"b\"}")),
        Reply.text("Both listed."));
    agent(new OpenAiModelSource(server.url(), FakeOpenAi.MODEL, null, Duration.ofSeconds(5)))
        .send("list a and b", listener)
        .get(20, TimeUnit.SECONDS);
    assertEquals(
        List.of("a", "b"),
        link.executed.stream().map(e -> e.args().get("path").asText()).toList());
    var second = server.chatRequests().get(1).path("messages");
    var asked = second.get(second.size() - 3);
    assertEquals(2, asked.path("tool_calls").size(), asked.toString());
    assertEquals("call_0", second.get(second.size() - 2).path("tool_call_id").asText());
    assertEquals("call_1", second.get(second.size() - 1).path("tool_call_id").asText());
    assertEquals("Both listed.", listener.text.toString());
  }

  @Test
  void aKeyIsSentAsABearerTokenOnlyWhenSet() throws Exception {
    server.enqueue(Reply.text("one"), Reply.text("two"));
    agent(new OpenAiModelSource(server.url(), FakeOpenAi.MODEL, "sk-test", Duration.ofSeconds(5)))
        .send("hi", listener)
        .get(20, TimeUnit.SECONDS);
    agent(new OpenAiModelSource(server.url(), FakeOpenAi.MODEL, null, Duration.ofSeconds(5)))
        .send("hi", listener)
        .get(20, TimeUnit.SECONDS);
    assertEquals("Bearer sk-test", server.authorizations().get(0));
    assertTrue(
        !server.authorizations().get(1).contains("sk-test"),
        server.authorizations().toString());
  }

  @Test
  void noServerSaysBothWaysToGetAModel() {
    int port = server.port();
    server.close();
    ModelUnavailableException e = assertThrows(
        ModelUnavailableException.class,
        () -> new OpenAiModelSource(
                "http://127.0.0.1:" + port + "/v1", null, null, Duration.ofSeconds(2))
            .model());
    assertTrue(e.getMessage().startsWith("No OpenAI-compatible server answers at"), e.getMessage());
    assertTrue(e.getMessage().contains("ollama pull"), e.getMessage());
    assertTrue(e.getMessage().contains("LM Studio"), e.getMessage());
  }
}
