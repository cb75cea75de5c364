package dev.steward.protocol.tool;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Where a call stands in the audit log (SPEC §3.1). */
public record AuditMeta(
    String auditId,
    String decision,
    Instant startedAt,
    @Nullable Instant endedAt) {}
