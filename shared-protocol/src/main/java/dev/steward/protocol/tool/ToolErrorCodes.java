package dev.steward.protocol.tool;

/** The tool-level error codes of SPEC §3: deterministic, never written by a model. */
public final class ToolErrorCodes {

  public static final String VALIDATION_ERROR = "VALIDATION_ERROR";
  public static final String SCOPE_DENIED = "SCOPE_DENIED";
  public static final String CONFIRMATION_REQUIRED = "CONFIRMATION_REQUIRED";
  public static final String TOKEN_MISSING = "TOKEN_MISSING";
  public static final String TOKEN_INVALID = "TOKEN_INVALID";
  public static final String TOKEN_EXPIRED = "TOKEN_EXPIRED";
  public static final String TOKEN_USED = "TOKEN_USED";
  public static final String TOKEN_MISMATCH = "TOKEN_MISMATCH";
  public static final String NOT_FOUND = "NOT_FOUND";
  public static final String ALREADY_EXISTS = "ALREADY_EXISTS";
  public static final String TOO_LARGE = "TOO_LARGE";
  public static final String TIMEOUT = "TIMEOUT";
  public static final String UNAVAILABLE = "UNAVAILABLE";
  public static final String EXECUTION_ERROR = "EXECUTION_ERROR";
  public static final String INTERNAL = "INTERNAL";
  /** The call was cancelled with {@code tool.cancel} (an extension of SPEC §3's list). */
  public static final String CANCELLED = "CANCELLED";
  /**
   * What the call would change has changed since it was read (a calendar event edited elsewhere:
   * its ETag no longer matches); nothing was changed (an extension of SPEC §3's list).
   */
  public static final String CONFLICT = "CONFLICT";

  /** Codes that mean the gate refused a call (blocked), as opposed to a call that failed. */
  private static final java.util.Set<String> REFUSALS = java.util.Set.of(
      SCOPE_DENIED,
      CONFIRMATION_REQUIRED,
      TOKEN_MISSING,
      TOKEN_INVALID,
      TOKEN_EXPIRED,
      TOKEN_USED,
      TOKEN_MISMATCH);

  private ToolErrorCodes() {}

  /**
   * Whether {@code code} is the gate's refusal — before a call runs, or at its last look once it
   * was allowed or confirmed (a file changed, a link was swapped, a redirect left the scope).
   */
  public static boolean isRefusal(@org.jspecify.annotations.Nullable String code) {
    return code != null && REFUSALS.contains(code);
  }
}
