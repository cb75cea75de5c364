package dev.steward.service.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolError;
import org.jspecify.annotations.Nullable;

/** A tool's own refusal or failure, with a code from SPEC §3 and a message for the model. */
public final class ToolFailure extends Exception {

  private final ToolError error;

  public ToolFailure(String code, String message) {
    this(code, message, null, null);
  }

  public ToolFailure(
      String code, String message, @Nullable String field, @Nullable JsonNode details) {
    super(message, null, false, false);
    this.error = new ToolError(code, message, field, details);
  }

  public ToolError error() {
    return error;
  }
}
