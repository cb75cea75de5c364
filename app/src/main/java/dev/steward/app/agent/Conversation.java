package dev.steward.app.agent;

import java.util.concurrent.CompletableFuture;

/** What the chat needs from the agent: send a turn, stop it. */
public interface Conversation {

  CompletableFuture<Void> send(String input, TurnListener listener);

  void stop();

  /**
   * Asks the user again for a call whose approval expired: the same tool and arguments, a fresh
   * check and dialog; then the model goes on from its result.
   */
  CompletableFuture<Void> askAgain(ProposedCall call, TurnListener listener);

  /**
   * Asks the model again where it failed to answer: the user's message (or the calls' results) it
   * owed an answer to are in the history already, so nothing is sent twice.
   */
  CompletableFuture<Void> retry(TurnListener listener);

  /**
   * Starts over from a saved conversation (or from nothing): the model sees these messages, and
   * the calls made from now on carry the conversation's id in their trace ids, so the audit log's
   * text filter finds all of a conversation's rows.
   */
  default void restore(String conversationId, java.util.List<Exchange> exchanges) {}
}
