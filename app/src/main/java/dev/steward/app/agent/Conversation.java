package dev.steward.app.agent;

import java.util.concurrent.CompletableFuture;

/** What the chat needs from the agent: send a turn, stop it. */
public interface Conversation {

  CompletableFuture<Void> send(String input, TurnListener listener);

  void stop();

  /** Starts over from a saved conversation (or from nothing): the model sees these messages. */
  default void restore(java.util.List<Exchange> exchanges) {}
}
