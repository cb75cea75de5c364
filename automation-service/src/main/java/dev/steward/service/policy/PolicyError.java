package dev.steward.service.policy;

/** A policy that cannot be used as written; the message names the key or value at fault. */
public final class PolicyError extends Exception {

  public PolicyError(String message) {
    super(message, null, false, false);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }
}
