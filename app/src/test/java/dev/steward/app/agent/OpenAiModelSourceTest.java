package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.FakeOpenAi;
import dev.steward.protocol.json.Json;
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
  void aServerRefusingARequestAsTooLongIsAskedAgainWithHalfTheContext() throws Exception {
    link.results.put("files.list_dir", Json.object().put("entries", "entry.txt ".repeat(1_500)));
    server.enqueue(
        Reply.calls(FakeOllama.call("files__list_dir", "{\"path\":\"a\"}")), Reply.text("Listed."));
    Agent agent = agent(
        new OpenAiModelSource(server.url(), FakeOpenAi.MODEL, null, 16_384, Duration.ofSeconds(5)));
    agent.send("list a", listener).get(20, TimeUnit.SECONDS);
    server.refuseNext(
        400,
        "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available context size,"
            + " try increasing it\",\"type\":\"exceed_context_size_error\","
            + "\"n_prompt_tokens\":9000,\"n_ctx\":4096}}");
    server.enqueue(Reply.text("Fits now."));
    agent.send("a long paste ".repeat(1_000), listener).get(20, TimeUnit.SECONDS);
    assertTrue(listener.text.toString().endsWith("Fits now."), listener.text.toString());
    assertTrue(
        listener.events.stream().noneMatch(e -> e.startsWith("error")), listener.events.toString());
    List<JsonNode> sent = server.chatRequests();
    assertEquals(4, sent.size());
    assertTrue(!sent.get(2).toString().contains("shortened to fit"), "16,384 tokens held it all");
    assertTrue(sent.get(3).toString().contains("shortened to fit"), "8,192 do not");
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
