package dev.steward.app.agent;

import java.util.concurrent.CompletableFuture;

/** What the chat needs from the agent: send a turn, stop it. */
public interface Conversation {

  CompletableFuture<Void> send(String input, TurnListener listener);

  void stop();
}
