package dev.steward.service.token;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a confirm token allows, kept server-side (the token value itself is never stored). Either
 * exact {@code calls} (each usable once) or a set of {@code tools} under {@code scopePaths}.
 */
public record TokenRecord(
    String tokenId,
    String traceId,
    @Nullable List<Call> calls,
    @Nullable List<String> tools,
    @Nullable List<String> scopePaths,
    boolean reusable,
    Instant expiresAt,
    long mintSeq) {

  /**
   * One approved call: the tool, the SHA-256 of its canonical arguments, and the real paths it
   * would touch when the user approved it ({@code targets}, in the order of the tool's path
   * arguments): the same arguments that reach other files later — a link pointed elsewhere, the
   * folders changed — are not what the user approved. {@code fingerprints}: what each target
   * named then ({@code FileStamp}, in the same order): another file moved into the path, or the
   * file written since, is not what the user approved either. Each is null only in a record kept
   * from before it was bound.
   */
  public record Call(
      String tool,
      String argsHash,
      @Nullable List<String> targets,
      @Nullable List<String> fingerprints) {
    /** The record's own form, also when it is read back from the audit database. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public Call {}

    /** A call bound to its arguments alone (records kept from before targets were bound). */
    public Call(String tool, String argsHash) {
      this(tool, argsHash, null, null);
    }

    /** A call bound to its arguments and paths (records kept from before files were bound). */
    public Call(String tool, String argsHash, @Nullable List<String> targets) {
      this(tool, argsHash, targets, null);
    }
  }

  public boolean exact() {
    return calls != null;
  }
}
