package dev.steward.service.scope;

/** What a call does with a path. */
public enum Access {
  READ,
  WRITE,
  /**
   * Takes the path away from where it is, with everything below it (a move's source, a delete, a
   * replaced target): refused for any folder that holds, or by its name could hold, a place that
   * is always refused — moving {@code ~/.config} away would carry Steward's own secrets out of
   * reach of the rules that protect them.
   */
  REMOVE
}
