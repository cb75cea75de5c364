package dev.steward.protocol.service;

/** The service could not be found or started; the message says why in a user's words. */
public final class ServiceUnavailableException extends RuntimeException {
  public ServiceUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }

  public ServiceUnavailableException(String message) {
    super(message);
  }
}
