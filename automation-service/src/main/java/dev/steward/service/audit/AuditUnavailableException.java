package dev.steward.service.audit;

/** The log could not record a row; whatever the row was for must not happen. */
public final class AuditUnavailableException extends Exception {

  public AuditUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The one wording of a database that cannot be read. */
  static AuditUnavailableException reading(java.sql.SQLException e) {
    return new AuditUnavailableException("the audit database cannot be read: " + e.getMessage(), e);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }
}
