package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.List;

/** What the agent made of one call a model asked for: a call for the gate, or a mistake to hand back. */
sealed interface ModelCall {

  /** The request as it goes into the history: the name the model sees, the arguments as read. */
  ToolExecutionRequest request();

  /** Equal for two calls that are the same call, so that a model repeating one is noticed. */
  List<Object> sameness();

  /** A call the gate will see, with the tool it names and its arguments as an object. */
  record Ready(ToolExecutionRequest request, ToolDefinition tool, JsonNode args)
      implements ModelCall {
    @Override
    public List<Object> sameness() {
      return List.of(tool.name(), args);
    }
  }

  /**
   * A call that cannot be read without guessing: {@code problem} tells the model how to fix it,
   * {@code plain} tells the user what happened.
   */
  record Mistake(ToolExecutionRequest request, String problem, String plain) implements ModelCall {
    @Override
    public List<Object> sameness() {
      return List.of(
          "unreadable", String.valueOf(request.name()), String.valueOf(request.arguments()));
    }
  }
}
