package dev.steward.service.audit;

import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a caller asks the log to record. Text fields are bounded and stripped of control characters
 * here, once, so no row can carry an ANSI escape or a megabyte of argument text.
 */
public record AuditEntry(
    AuditKind kind,
    @Nullable String traceId,
    @Nullable String callId,
    @Nullable String tool,
    @Nullable String argsHash,
    @Nullable String argsPreview,
    @Nullable Decision decision,
    @Nullable String reason,
    @Nullable String tokenId,
    @Nullable Outcome result,
    @Nullable String errorCode,
    @Nullable String summary,
    Instant startedAt,
    @Nullable Instant endedAt) {

  public static final int MAX_ID = 200;
  public static final int MAX_PREVIEW = 2000;
  public static final int MAX_TEXT = 1000;

  public AuditEntry {
    Objects.requireNonNull(kind, "kind");
    traceId = Text.clean(traceId, MAX_ID);
    callId = Text.clean(callId, MAX_ID);
    tool = Text.clean(tool, MAX_ID);
    argsPreview = Text.clean(argsPreview, MAX_PREVIEW);
    reason = Text.clean(reason, MAX_TEXT);
    summary = Text.clean(summary, MAX_TEXT);
    startedAt = startedAt.truncatedTo(ChronoUnit.MICROS);
    endedAt = endedAt == null ? null : endedAt.truncatedTo(ChronoUnit.MICROS);
  }
}
