package dev.steward.app.agent;

import dev.langchain4j.model.chat.StreamingChatModel;

/** Where the agent gets its chat model. */
public interface ModelSource {

  /** A model ready to chat, with its name. */
  record Model(String name, StreamingChatModel chat) {}

  /** The model to use now; throws {@link ModelUnavailableException} saying how to get one. */
  Model model();
}
