package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.List;

/** What the agent made of one call a model asked for: a call for the gate, or a mistake to hand back. */
sealed interface ModelCall {

  /** The request as it goes into the history: the name the model sees, the arguments as read. */
  ToolExecutionRequest request();

  /** Equal for two calls that are the same call, so that a model repeating one is noticed. */
  List<Object> sameness();

  /** The call as the audit log records one that the window did not run, under {@code callId}. */
  Deny.Call notRun(String callId);

  /** A call the gate will see, with the tool it names and its arguments as an object. */
  record Ready(ToolExecutionRequest request, ToolDefinition tool, JsonNode args)
      implements ModelCall {
    @Override
    public List<Object> sameness() {
      return List.of(tool.name(), args);
    }

    @Override
    public Deny.Call notRun(String callId) {
      return new Deny.Call(tool.name(), args, callId);
    }
  }

  /**
   * A call that cannot be read without guessing: {@code problem} tells the model how to fix it,
   * {@code plain} tells the user what happened, and {@code why} the audit log, under the name of
   * the {@code tool} it asked for (Steward's name when there is one, else the model's, as shown).
   */
  record Mistake(
      ToolExecutionRequest request, String tool, String problem, String plain, String why)
      implements ModelCall {

    @Override
    public List<Object> sameness() {
      return List.of(
          "unreadable", String.valueOf(request.name()), String.valueOf(request.arguments()));
    }

    /**
     * Its arguments only as a hash and a length: the service hides a tool's sensitive arguments
     * by name, which text it cannot read as arguments (or arguments for no tool) do not have, so
     * a file's contents or a key would otherwise stand in the log as the model wrote them.
     */
    @Override
    public Deny.Call notRun(String callId) {
      String raw = request.arguments() == null ? "" : request.arguments();
      JsonNode args = Json.object()
          .put(
              "unreadable_arguments_sha256",
              CanonicalJson.sha256Hex(raw.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
          .put("chars", raw.length());
      return new Deny.Call(tool, args, callId);
    }
  }
}
