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

  private ToolErrorCodes() {}
}
