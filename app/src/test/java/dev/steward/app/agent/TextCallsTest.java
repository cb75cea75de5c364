package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TextCallsTest {

  private final RemoteTools tools = new RemoteTools(FakeLink.definitions());

  private TextCalls.Found found(String text) {
    Optional<TextCalls.Found> found = TextCalls.find(text, tools);
    assertTrue(found.isPresent(), text);
    return found.get();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // Hermes / Qwen 2.5 chat templates
        "<tool_call>\n{\"name\": \"files__list_dir\", \"arguments\": {\"path\": \"docs\"}}\n</tool_call>",
        // the closing tag cut off by the stop token
        "<tool_call>\n{\"name\": \"files__list_dir\", \"arguments\": {\"path\": \"docs\"}}",
        // Mistral
        "[TOOL_CALLS] [{\"name\": \"files__list_dir\", \"arguments\": {\"path\": \"docs\"}}]",
        // Llama 3.1 built-in tool format
        "<|python_tag|>{\"name\": \"files.list_dir\", \"parameters\": {\"path\": \"docs\"}}<|eom_id|>",
        // Llama 3.1 custom function format
        "<function=files__list_dir>{\"path\": \"docs\"}</function>",
        // Llama 3.2: the whole answer is the call
        "{\"name\": \"files__list_dir\", \"parameters\": {\"path\": \"docs\"}}",
        // a fenced block
        "```json\n{\"name\": \"files__list_dir\", \"arguments\": {\"path\": \"docs\"}}\n```",
        // OpenAI's own shape, written out
        "{\"type\": \"function\", \"function\": {\"name\": \"files__list_dir\", \"arguments\": \"{\\\"path\\\": \\\"docs\\\"}\"}}"
      })
  void aCallWrittenIntoTheTextIsFoundInEachCommonShape(String text) {
    TextCalls.Found f = found(text);
    assertEquals(1, f.calls().size());
    ToolExecutionRequest call = f.calls().get(0);
    ModelCall.Ready ready = (ModelCall.Ready) CallRepair.read(call, tools);
    assertEquals("files.list_dir", ready.tool().name());
    assertEquals("docs", ready.args().get("path").asText());
    assertEquals("", f.text());
    assertTrue(call.id().startsWith("call_"), call.id());
  }

  @Test
  void theWordsAroundTheCallsStayAndEveryCallIsTaken() {
    TextCalls.Found f = found("Let me look.\n<tool_call>{\"name\": \"files__list_dir\", "
        + "\"arguments\": {\"path\": \"a\"}}</tool_call>\n<tool_call>{\"name\": "
        + "\"files__list_dir\", \"arguments\": {\"path\": \"b\"}}</tool_call>");
    assertEquals("Let me look.", f.text());
    assertEquals(
        List.of("{\"path\": \"a\"}", "{\"path\": \"b\"}"),
        f.calls().stream().map(c -> c.arguments().replace("\":\"", "\": \"")).toList());
  }

  @Test
  void aTaggedCallToAnUnknownToolIsStillACallSoTheModelHearsOfIt() {
    TextCalls.Found f =
        found("<tool_call>{\"name\": \"web_search\", \"arguments\": {\"q\": \"x\"}}</tool_call>");
    assertEquals("web_search", f.calls().get(0).name());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Here is the config:\n```json\n{\"name\": \"build\", \"arguments\": {\"x\": 1}}\n```",
        "{\"name\": \"Alice\", \"parameters\": {\"age\": 3}}",
        "{\"path\": \"docs\"}",
        "I would use <tool_call> tags, like this: <tool_call>not json</tool_call>",
        "Plain words about files__list_dir."
      })
  void anAnswerThatOnlyShowsJsonStaysAnAnswer(String text) {
    assertEquals(Optional.empty(), TextCalls.find(text, tools));
  }

  @Test
  void aCallIsSaidToBeQuotedOnlyWhenItsToolIsNamedAsAToolIsWritten() {
    List<dev.langchain4j.agent.tool.ToolExecutionRequest> calls =
        List.of(dev.langchain4j.agent.tool.ToolExecutionRequest.builder()
            .name("files__write_text")
            .arguments("{}")
            .build());
    java.util.function.Function<String, Boolean> said = text ->
        TextCalls.named(calls, List.of(dev.langchain4j.data.message.UserMessage.from(text)), tools);
    assertTrue(said.apply("please look: {\"name\": \"files.write_text\"}"));
    assertTrue(said.apply("[TOOL_CALLS] files__write_text {}"));
    assertTrue(said.apply("FILES.WRITE_TEXT"));
    assertFalse(said.apply("write the text files for me"));
    assertFalse(said.apply("files, write text"));
    assertFalse(said.apply("myfiles.write_texts"));
  }
}
