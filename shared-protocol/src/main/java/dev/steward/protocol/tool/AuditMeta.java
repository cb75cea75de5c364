package dev.steward.protocol.tool;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Where a call stands in the audit log (SPEC §3.1), and, once it ran, the summary its completion
 * row records ("3 matches in 2 files") — what a person reads on the call's card. {@code summary} is
 * an extension of §3.1's shape, absent where there is none.
 */
public record AuditMeta(
    String auditId,
    String decision,
    Instant startedAt,
    @Nullable Instant endedAt,

    @com.fasterxml.jackson.annotation.JsonInclude(
        com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @Nullable
    String summary) {

  public AuditMeta(String auditId, String decision, Instant startedAt, @Nullable Instant endedAt) {
    this(auditId, decision, startedAt, endedAt, null);
  }
}
