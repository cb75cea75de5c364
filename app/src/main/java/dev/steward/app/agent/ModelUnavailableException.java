package dev.steward.app.agent;

/** No model can be used; the message says what is missing and the exact steps to fix it. */
public final class ModelUnavailableException extends RuntimeException {
  public ModelUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }

  public ModelUnavailableException(String message) {
    super(message);
  }
}
