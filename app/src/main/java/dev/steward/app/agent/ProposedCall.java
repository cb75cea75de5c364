package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolDefinition;
import org.jspecify.annotations.Nullable;

/**
 * One call the model (or a {@code /call} command) proposed, before the gate has looked at it.
 * {@code inProse}: the model wrote it among the words of its answer, where it may be quoting a call
 * it read; the gate judges it as after untrusted content.
 */
public record ProposedCall(String callId, ToolDefinition tool, JsonNode args, boolean inProse) {

  public ProposedCall(String callId, ToolDefinition tool, JsonNode args) {
    this(callId, tool, args, false);
  }

  /** The same call with other arguments (the user's edit): still what it was. */
  public ProposedCall withArgs(JsonNode value) {
    return new ProposedCall(callId, tool, value, inProse);
  }

  /** The same call under another id (asked again): still what it was. */
  public ProposedCall withId(String value) {
    return new ProposedCall(value, tool, args, inProse);
  }

  /** What the wire's {@code in_prose} says: only ever true, or nothing. */
  public @Nullable Boolean inProseOnTheWire() {
    return inProse ? Boolean.TRUE : null;
  }

  public String toolName() {
    return tool.name();
  }
}
