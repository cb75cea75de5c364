package dev.steward.service.token;

/** A confirm token that does not cover the call; {@code code} is one of the TOKEN_* codes. */
public final class TokenRefused extends Exception {

  private final String code;

  public TokenRefused(String code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  public String code() {
    return code;
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }
}
