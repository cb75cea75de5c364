package dev.steward.app.window;

import dev.steward.app.FakeOpenAi;
import dev.steward.app.ModelStub;

/**
 * The conversations of {@link ChatWindowIT} against a server that speaks OpenAI's chat completions
 * API (streamed events, tool calls in fragments, usage), through langchain4j-open-ai unchanged.
 * The tests that involve no model server run once, there: they are overridden here as plain
 * methods, which JUnit does not run.
 */
class OpenAiChatWindowIT extends ChatWindowIT {

  @Override
  ModelStub newStub() throws Exception {
    return new FakeOpenAi();
  }

  @Override
  void withoutAModelServerTheBannerShowsAndCommandsStillWork() {}

  @Override
  void aKilledServiceIsRestartedAndTheNextCallWorks() {}

  @Override
  void theShortcutsPeopleExpect() {}
}
