package dev.steward.service.tools.household;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import org.jspecify.annotations.Nullable;

/** The pack's refusals (seed 001's structured errors): a code, a fixed message, the field. */
final class Failures {

  private Failures() {}

  /** A refused input; {@code field} is the argument's JSON pointer. */
  static ToolFailure invalid(String field, String message) {
    return new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, message, field, null);
  }

  static ToolFailure invalid(String field, String message, @Nullable JsonNode details) {
    return new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, message, field, details);
  }

  /** Not found — also what a row of another household looks like: it is not there. */
  static ToolFailure notFound(String field, String what, String id) {
    return new ToolFailure(
        ToolErrorCodes.NOT_FOUND, "no " + what + " with id \"" + id + "\"", field, null);
  }

  static ToolFailure exists(String field, String message) {
    return new ToolFailure(ToolErrorCodes.ALREADY_EXISTS, message, field, null);
  }
}
