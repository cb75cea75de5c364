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

  /** One approved call: the tool and the SHA-256 of its canonical arguments. */
  public record Call(String tool, String argsHash) {}

  public boolean exact() {
    return calls != null;
  }
}
