package dev.steward.app.agent;

import dev.steward.protocol.tool.ToolErrorCodes;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A tool error in the words a person reads on a call's card; the code stays in the details. */
final class PlainErrors {

  private static final Map<String, String> WORDS = Map.ofEntries(
      Map.entry(ToolErrorCodes.VALIDATION_ERROR, "The arguments were not valid"),
      Map.entry(ToolErrorCodes.SCOPE_DENIED, "Not allowed"),
      Map.entry(ToolErrorCodes.CONFIRMATION_REQUIRED, "It needed your approval"),
      Map.entry(ToolErrorCodes.TOKEN_MISSING, "It needed your approval"),
      Map.entry(ToolErrorCodes.TOKEN_INVALID, "The approval did not fit this call"),
      Map.entry(ToolErrorCodes.TOKEN_EXPIRED, "The approval ran out of time"),
      Map.entry(ToolErrorCodes.TOKEN_USED, "The approval was already used"),
      Map.entry(ToolErrorCodes.TOKEN_MISMATCH, "The approval was for another call"),
      Map.entry(ToolErrorCodes.NOT_FOUND, "Not found"),
      Map.entry(ToolErrorCodes.ALREADY_EXISTS, "It is already there"),
      Map.entry(ToolErrorCodes.TOO_LARGE, "Too large"),
      Map.entry(ToolErrorCodes.TIMEOUT, "It took too long"),
      Map.entry(ToolErrorCodes.UNAVAILABLE, "Not available now"),
      Map.entry(ToolErrorCodes.EXECUTION_ERROR, "It failed"),
      Map.entry(ToolErrorCodes.INTERNAL, "Steward had an internal error"),
      Map.entry(ToolErrorCodes.CANCELLED, "Stopped"),
      Map.entry(ToolErrorCodes.CONFLICT, "It changed in the meantime"));

  private PlainErrors() {}

  /** "Not allowed: …" for SCOPE_DENIED; a code without words of its own keeps its message only. */
  static String say(@Nullable String code, String message) {
    String words = code == null ? null : WORDS.get(code);
    return words == null ? message : words + ": " + message;
  }
}
