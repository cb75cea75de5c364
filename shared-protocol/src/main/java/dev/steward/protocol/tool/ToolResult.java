package dev.steward.protocol.tool;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of {@code tool.execute}: {@code {ok: true, value}} or {@code {ok: false, error}},
 * always with its audit metadata. A refused call is a result, not a protocol error.
 */
public record ToolResult(
    boolean ok,
    @Nullable JsonNode value,
    @Nullable ToolError error,
    @Nullable AuditMeta audit) {

  public ToolResult {
    if (ok == (error != null)) {
      throw new IllegalArgumentException("ok results carry a value, failed ones an error");
    }
  }

  public static ToolResult success(JsonNode value, @Nullable AuditMeta audit) {
    return new ToolResult(true, value, null, audit);
  }

  public static ToolResult failure(ToolError error, @Nullable AuditMeta audit) {
    return new ToolResult(false, null, error, audit);
  }

  public ToolResult withAudit(AuditMeta meta) {
    return new ToolResult(ok, value, error, meta);
  }

  /** The error code, or null for a success. */
  public @Nullable String errorCode() {
    return error == null ? null : error.code();
  }
}
