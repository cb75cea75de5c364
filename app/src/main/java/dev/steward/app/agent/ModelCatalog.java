package dev.steward.app.agent;

import dev.langchain4j.model.ollama.OllamaModel;
import dev.langchain4j.model.ollama.OllamaModels;
import java.time.Duration;
import java.util.List;

/** The models a server offers, for the settings' model picker and its connection test. */
public final class ModelCatalog {

  private ModelCatalog() {}

  /** Whether a model calls tools, as far as its server says. */
  public enum ToolUse {
    CALLS_TOOLS,
    NO_TOOLS,
    /** OpenAI-compatible servers do not say; the first message will show. */
    NOT_SAID
  }

  /** A model the server has, and what its server says about tools. */
  public record Offered(String name, ToolUse tools) {}

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** The server's models; throws with a readable message when it cannot be reached. */
  public static List<Offered> list(ModelServer server) {
    if (server.kind() == ModelServer.Kind.OPENAI_COMPATIBLE)
      return OpenAiModelSource.list(server.url(), server.key(), TIMEOUT).stream()
          .map(name -> new Offered(name, ToolUse.NOT_SAID))
          .toList();
    try {
      OllamaModels ollama = OllamaModels.builder()
          .baseUrl(server.url())
          .timeout(TIMEOUT)
          .maxRetries(0)
          .build();
      return ollama.availableModels().content().stream()
          .map(OllamaModel::getName)
          .map(name -> new Offered(name, callsTools(ollama, name)))
          .toList();
    } catch (RuntimeException e) {
      throw new ModelUnavailableException(
          "No model server answers at " + server.url() + " (" + e.getMessage() + ")", e);
    }
  }

  private static ToolUse callsTools(OllamaModels server, String name) {
    try {
      var capabilities = server.modelCard(name).content().getCapabilities();
      return capabilities != null && capabilities.contains("tools")
          ? ToolUse.CALLS_TOOLS
          : ToolUse.NO_TOOLS;
    } catch (RuntimeException e) {
      return ToolUse
          .NO_TOOLS; // a model the server cannot describe is not offered as one that calls tools
    }
  }
}
