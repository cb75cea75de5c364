package dev.steward.protocol.audit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How an audit row says that its argument preview was cut: the preview ends with {@code [whole: N
 * chars, sha256:HEX]}, the hash of the whole arguments the service kept beside the log ({@code
 * audit.args}). The row's hash covers the preview, so the chain binds the whole too. A preview cut
 * in no place is complete JSON, which cannot end this way.
 */
public final class WholeArgs {

  private static final Pattern AT_END =
      Pattern.compile("\\[whole: (\\d{1,9}) chars, sha256:([0-9a-f]{64})\\]\\z");

  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

  private WholeArgs() {}

  /** What a cut preview ends with. */
  public static String marker(int chars, String sha256) {
    return "[whole: " + chars + " chars, sha256:" + sha256 + "]";
  }

  /**
   * The hash a call's row names as its whole arguments: only a decision or a completion row keeps
   * one (other rows' text is not a call's arguments); null for any other.
   */
  public static @Nullable String named(@Nullable AuditKind kind, @Nullable String preview) {
    return kind == AuditKind.DECISION || kind == AuditKind.COMPLETION ? hashIn(preview) : null;
  }

  /** As {@link #named(AuditKind, String)}, the kind as the wire spells it. */
  public static @Nullable String named(@Nullable String kind, @Nullable String preview) {
    return AuditKind.DECISION.wire().equals(kind) || AuditKind.COMPLETION.wire().equals(kind)
        ? hashIn(preview)
        : null;
  }

  /** The hash a cut preview ends with; null for a preview that was not cut. */
  public static @Nullable String hashIn(@Nullable String preview) {
    if (preview == null) return null;
    Matcher m = AT_END.matcher(preview);
    return m.find() ? m.group(2) : null;
  }

  /** Whether {@code text} is a hash as the marker writes it (and nothing that names a path). */
  public static boolean isHash(@Nullable String text) {
    return text != null && HASH.matcher(text).matches();
  }
}
