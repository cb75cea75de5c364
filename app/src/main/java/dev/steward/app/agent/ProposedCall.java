package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolDefinition;

/** One call the model (or a {@code /call} command) proposed, before the gate has looked at it. */
public record ProposedCall(String callId, ToolDefinition tool, JsonNode args) {

  public String toolName() {
    return tool.name();
  }
}
