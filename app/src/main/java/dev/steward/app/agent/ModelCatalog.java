package dev.steward.app.agent;

import dev.langchain4j.model.ollama.OllamaModel;
import dev.langchain4j.model.ollama.OllamaModels;
import java.time.Duration;
import java.util.List;

/** The models a server offers, for the settings' model picker and its connection test. */
public final class ModelCatalog {

  private ModelCatalog() {}

  /** The server's model names; throws with a readable message when it cannot be reached. */
  public static List<String> list(String baseUrl) {
    try {
      return OllamaModels.builder()
          .baseUrl(baseUrl)
          .timeout(Duration.ofSeconds(5))
          .maxRetries(0)
          .build()
          .availableModels()
          .content()
          .stream()
          .map(OllamaModel::getName)
          .toList();
    } catch (RuntimeException e) {
      throw new ModelUnavailableException(
          "No model server answers at " + baseUrl + " (" + e.getMessage() + ")", e);
    }
  }
}
