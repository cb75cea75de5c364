package dev.steward.app.agent;

import dev.langchain4j.model.ollama.OllamaModel;
import dev.langchain4j.model.ollama.OllamaModels;
import java.time.Duration;
import java.util.List;

/** The models a server offers, for the settings' model picker and its connection test. */
public final class ModelCatalog {

  private ModelCatalog() {}

  /** A model the server has, and whether its card lists the {@code tools} capability. */
  public record Offered(String name, boolean tools) {}

  /** The server's models; throws with a readable message when it cannot be reached. */
  public static List<Offered> list(String baseUrl) {
    try {
      OllamaModels server = OllamaModels.builder()
          .baseUrl(baseUrl)
          .timeout(Duration.ofSeconds(5))
          .maxRetries(0)
          .build();
      return server.availableModels().content().stream()
          .map(OllamaModel::getName)
          .map(name -> new Offered(name, callsTools(server, name)))
          .toList();
    } catch (RuntimeException e) {
      throw new ModelUnavailableException(
          "No model server answers at " + baseUrl + " (" + e.getMessage() + ")", e);
    }
  }

  private static boolean callsTools(OllamaModels server, String name) {
    try {
      var capabilities = server.modelCard(name).content().getCapabilities();
      return capabilities != null && capabilities.contains("tools");
    } catch (RuntimeException e) {
      return false; // a model the server cannot describe is not offered as one that calls tools
    }
  }
}
