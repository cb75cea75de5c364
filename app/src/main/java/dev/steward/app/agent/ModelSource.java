package dev.steward.app.agent;

import dev.langchain4j.model.chat.StreamingChatModel;

/** Where the agent gets its chat model. */
public interface ModelSource {

  /**
   * A model ready to chat, with its name and the context it is run with, in tokens: what is sent
   * to it is fitted to that ({@link ContextWindow}).
   */
  record Model(String name, StreamingChatModel chat, int contextTokens) {

    /** The context when neither the server nor the settings say: small, and safe on a laptop. */
    public static final int DEFAULT_CONTEXT_TOKENS = 8192;

    public Model(String name, StreamingChatModel chat) {
      this(name, chat, DEFAULT_CONTEXT_TOKENS);
    }
  }

  /** The model to use now; throws {@link ModelUnavailableException} saying how to get one. */
  Model model();
}
