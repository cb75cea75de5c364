package dev.steward.app.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.app.FakeOllama;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.app.FakeOpenAi;
import dev.steward.app.agent.Agent;
import dev.steward.app.agent.ModelSource;
import dev.steward.app.agent.OllamaModelSource;
import dev.steward.app.agent.OpenAiModelSource;
import dev.steward.protocol.method.Audit;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Small models' tool-calling mistakes, as Ollama and OpenAI-compatible servers stream them
 * ({@code src/test/resources/transcripts}), replayed by loopback servers to the unchanged
 * langchain4j clients, through the real agent loop and the real service: what can be read without
 * a guess leads to the right call through the gate; anything else to one corrective message, then
 * the right call; a call repeated after failing stops.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TranscriptIT {

  private static final String NOTES = "~/Steward/notes";

  private TrustHarness h;
  private FakeOpenAi openAi;

  @BeforeAll
  void start() throws Exception {
    h = new TrustHarness();
    h.model.useScript();
    openAi = new FakeOpenAi();
  }

  @AfterAll
  void stop() throws Exception {
    openAi.close();
    h.close();
  }

  /** Each fixture, and the words the corrective message has ("" when it is read as it is). */
  static Stream<Arguments> transcripts() {
    return Stream.of(
        Arguments.of("ollama/qwen-hermes-in-content.ndjson", ""),
        Arguments.of("ollama/llama-fenced-json.ndjson", ""),
        Arguments.of("ollama/dotted-name.ndjson", ""),
        Arguments.of("ollama/unknown-tool.ndjson", "There is no tool named"),
        Arguments.of("ollama/missing-required.ndjson", "VALIDATION_ERROR"),
        Arguments.of("openai/llama-server-hermes-in-content.sse", ""),
        Arguments.of("openai/vllm-mistral-marker-in-content.sse", ""),
        Arguments.of("openai/arguments-as-a-string.sse", ""),
        Arguments.of("openai/functions-prefix.sse", ""),
        Arguments.of("openai/truncated-arguments.sse", "were not valid JSON"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transcripts")
  void aMistakeIsReadOrCorrectedAndTheRightCallGoesThroughTheGate(String fixture, String told)
      throws Exception {
    boolean ollama = fixture.startsWith("ollama/");
    String conversation = "transcript-" + UUID.randomUUID();
    Reply right = Reply.calls(FakeOllama.call("files__list_dir", "{\"path\":\"" + NOTES + "\"}"));
    List<Reply> replies = told.isEmpty()
        ? List.of(Reply.raw(fixture(fixture)), Reply.text("Your notes folder is listed."))
        : List.of(Reply.raw(fixture(fixture)), right, Reply.text("Your notes folder is listed."));
    int before = requests(ollama).size();
    if (ollama) h.model.enqueue(replies.toArray(Reply[]::new));
    else openAi.enqueue(replies.toArray(Reply[]::new));
    Agent agent = h.newAgent(conversation, source(ollama));
    h.say(agent, "What is in my notes folder?");
    List<JsonNode> sent = requests(ollama).subList(before, requests(ollama).size());
    assertEquals(replies.size(), sent.size(), "one model request per reply, none more");
    if (!told.isEmpty()) {
      String second = sent.get(1).path("messages").toString();
      assertTrue(second.contains(told), second);
      assertEquals(1, count(sent.get(2).path("messages").toString(), told), "told once");
    }
    List<Audit.Row> ran = h.rows(conversation).stream()
        .filter(r -> "files.list_dir".equals(r.tool()) && "ok".equals(r.result()))
        .toList();
    assertEquals(1, ran.size(), h.rows(conversation).toString());
    assertTrue(
        String.valueOf(ran.get(0).argsPreview()).contains(NOTES), ran.get(0).toString());
  }

  @Test
  void theSameUnknownCallThreeTimesStopsTheTurn() throws Exception {
    String conversation = "transcript-loop-" + UUID.randomUUID();
    String looping = fixture("ollama/unknown-tool.ndjson");
    int before = h.model.chatRequests().size();
    h.model.enqueue(Reply.raw(looping), Reply.raw(looping), Reply.raw(looping));
    List<String> notices =
        h.say(h.newAgent(conversation, source(true)), "What is in my notes folder?");
    assertEquals(3, h.model.chatRequests().size() - before, "not asked a fourth time");
    assertTrue(
        notices.stream().anyMatch(n -> n.startsWith("Stopped: the assistant asked again")),
        notices.toString());
  }

  private ModelSource source(boolean ollama) {
    return ollama
        ? new OllamaModelSource(h.model.url(), FakeOllama.MODEL, Duration.ofSeconds(30))
        : new OpenAiModelSource(openAi.url(), FakeOpenAi.MODEL, null, Duration.ofSeconds(30));
  }

  private List<JsonNode> requests(boolean ollama) {
    return ollama ? h.model.chatRequests() : openAi.chatRequests();
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
    return n;
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = TranscriptIT.class.getResourceAsStream("/transcripts/" + name)) {
      if (in == null) throw new IOException("no fixture " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
