package dev.steward.service.scope;

/** A path, app or host outside what the user allowed. The message is shown to the model as is. */
public class ScopeDenied extends Exception {

  public ScopeDenied(String message) {
    super(message, null, false, false);
  }

  /** Every message of this kind is written for the user: never absent. */
  @Override
  public String getMessage() {
    return String.valueOf(super.getMessage());
  }

  /** A host name that has no address: nothing to refuse, nothing to reach. */
  public static final class NotFound extends ScopeDenied {
    public NotFound(String host) {
      super("\"" + host + "\" cannot be found");
    }
  }
}
