package dev.steward.service.gate;

import dev.steward.protocol.tool.ToolError;
import org.jspecify.annotations.Nullable;

/** A gate step's "no": the error the caller gets and the audit log records. */
final class Refusal extends Exception {

  private final ToolError error;

  Refusal(String code, String message, @Nullable String field) {
    super(message, null, false, false);
    this.error = new ToolError(code, message, field, null);
  }

  ToolError error() {
    return error;
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }
}
