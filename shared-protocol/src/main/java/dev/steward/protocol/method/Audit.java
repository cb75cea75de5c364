package dev.steward.protocol.method;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@code audit.query}, {@code audit.verify} and {@code audit.args} (ui role). */
public final class Audit {

  private Audit() {}

  public record QueryParams(
      @Nullable String tool,
      @Nullable String decision,
      @Nullable String result,
      @Nullable String traceId,
      @Nullable String text,
      @Nullable Instant since,
      @Nullable Instant until,
      @Nullable Integer limit,
      @Nullable String cursor) {}

  /**
   * One row of the log. {@code kind} is {@code decision} (written before a tool runs, or alone
   * for a blocked call), {@code completion} (after it ran), {@code grant} (a token was minted or
   * revoked), {@code policy} (the user changed the policy: what changed, in {@code summary}) or
   * {@code protocol} (a refusal before any tool was chosen).
   */
  public record Row(
      String auditId,
      String kind,
      @Nullable String traceId,
      @Nullable String callId,
      @Nullable String tool,
      @Nullable String argsHash,
      @Nullable String argsPreview,
      @Nullable String decision,
      @Nullable String reason,
      @Nullable String tokenId,
      @Nullable String result,
      @Nullable String errorCode,
      @Nullable String summary,
      Instant startedAt,
      @Nullable Instant endedAt,
      String rowHash) {}

  public record QueryResult(List<Row> rows, @Nullable String nextCursor) {}

  /** {@code audit.args}: the hash a cut preview ends with. */
  public record ArgsParams(String sha256) {}

  /** The row's arguments as the service kept them, read back and checked against the hash. */
  public record ArgsResult(String sha256, String args) {}

  public record VerifyResult(
      boolean ok,
      long rowsChecked,
      @Nullable String firstBadRow,
      @Nullable String problem) {}
}
