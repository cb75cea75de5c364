package dev.steward.app.audit;

import dev.steward.protocol.method.Audit;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** The panel's filters; empty fields do not filter. */
public record AuditFilter(
    @Nullable String tool,
    @Nullable String decision,
    @Nullable String result,
    @Nullable String text,
    @Nullable Instant since,
    @Nullable Instant until) {

  public AuditFilter {
    tool = blankToNull(tool);
    decision = blankToNull(decision);
    result = blankToNull(result);
    text = blankToNull(text);
  }

  public static AuditFilter none() {
    return new AuditFilter(null, null, null, null, null, null);
  }

  Audit.QueryParams params(int limit, @Nullable String cursor) {
    return new Audit.QueryParams(tool, decision, result, null, text, since, until, limit, cursor);
  }

  private static @Nullable String blankToNull(@Nullable String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
