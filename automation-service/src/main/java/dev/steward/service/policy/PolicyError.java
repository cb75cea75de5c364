package dev.steward.service.policy;

/** A policy that cannot be used as written; the message names the key or value at fault. */
public final class PolicyError extends Exception {

  public PolicyError(String message) {
    super(message, null, false, false);
  }
}
