package dev.steward.app.approval;

/**
 * How an approval dialog comes to be shown: with none just before it, or in the place of one that
 * has just closed — where a click meant for that one may land on it.
 */
public enum Arrival {
  /** No dialog closed just before it. */
  FIRST,
  /** Just after the user answered another (or Stop did, or it ran out). */
  AFTER_ANSWERED,
  /** Just after the one the user was reading was withdrawn, unanswered, by whoever asked. */
  AFTER_WITHDRAWN;

  /** Whether a click or key aimed at the dialog before may reach this one. */
  public boolean followsAnother() {
    return this != FIRST;
  }
}
