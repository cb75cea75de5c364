package dev.steward.protocol.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why a call did not succeed. {@code field} is a JSON pointer into the arguments when one of them
 * is to blame, so a model can correct exactly that argument.
 */
public record ToolError(
    String code,
    String message,
    @Nullable String field,
    @Nullable JsonNode details) {

  public ToolError {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  public static ToolError of(String code, String message) {
    return new ToolError(code, message, null, null);
  }
}
