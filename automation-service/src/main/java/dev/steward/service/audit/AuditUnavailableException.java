package dev.steward.service.audit;

/** The log could not record a row; whatever the row was for must not happen. */
public final class AuditUnavailableException extends Exception {

  public AuditUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }
}
