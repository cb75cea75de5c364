package dev.steward.service.scope;

/** A path, app or host outside what the user allowed. The message is shown to the model as is. */
public final class ScopeDenied extends Exception {

  public ScopeDenied(String message) {
    super(message, null, false, false);
  }
}
