package dev.steward.app.agent;

/**
 * What the agent reports while a turn runs. Called from the agent's threads; a view model hops to
 * the UI thread itself.
 */
public interface TurnListener {

  /** The model answered to this name (it may have been found only now). */
  default void modelReady(String name) {}

  /** A new assistant message starts; tokens follow. */
  void assistantStarted();

  void assistantToken(String text);

  void assistantFinished();

  /**
   * The message just finished reads {@code text} now: calls the model wrote into it were taken out
   * to go through the gate. Blank when nothing else was said.
   */
  default void assistantRewritten(String text) {}

  /** A proposed call gets its card. */
  void callProposed(ProposedCall call);

  void callUpdated(CallUpdate update);

  /** A line from Steward itself (step limit reached, stopped, …). */
  void notice(String text);

  /** Something went wrong that the user should see in the conversation. */
  void error(String text);

  /**
   * The model gave no answer (its server is down, refused or broke off): said like an error, and
   * the user may {@link Conversation#retry} the turn.
   */
  default void modelFailed(String text) {
    error(text);
  }

  void turnFinished();
}
