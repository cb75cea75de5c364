package dev.steward.app.agent;

import dev.langchain4j.model.ollama.OllamaModel;
import dev.langchain4j.model.ollama.OllamaModelCard;
import dev.langchain4j.model.ollama.OllamaModels;
import dev.langchain4j.model.ollama.OllamaStreamingChatModel;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The model behind Ollama's HTTP API through langchain4j-ollama. With no model configured it takes
 * the first model the server lists whose capabilities include {@code tools}. The answer is kept
 * once found; a failure is not, so the next message tries again (the user may have started Ollama
 * in the meantime).
 */
public final class OllamaModelSource implements ModelSource {

  /** A model that calls tools well and fits a laptop; only a suggestion in the banner. */
  public static final String SUGGESTED_MODEL = "qwen2.5:7b";

  private final String baseUrl;
  private final @Nullable String configured;
  private final Duration timeout;
  private final int contextTokens;
  private volatile @Nullable Model found;

  public OllamaModelSource(String baseUrl, @Nullable String configuredModel, Duration timeout) {
    this(baseUrl, configuredModel, 0, timeout);
  }

  /**
   * @param contextTokens the context to run the model with (0: the model's own, within {@link
   *     Model#DEFAULT_CONTEXT_TOKENS}); Ollama is told it ({@code num_ctx}), since it would
   *     otherwise cut a long request silently at its own default
   */
  public OllamaModelSource(
      String baseUrl, @Nullable String configuredModel, int contextTokens, Duration timeout) {
    this.baseUrl = baseUrl;
    this.configured = configuredModel;
    this.contextTokens = contextTokens;
    this.timeout = timeout;
  }

  @Override
  public Model model() {
    Model m = found;
    if (m != null) return m;
    String name = configured != null ? configured : discover();
    int context = contextTokens > 0
        ? contextTokens
        : Math.min(Model.DEFAULT_CONTEXT_TOKENS, ownContext(name));
    m = new Model(
        name,
        OllamaStreamingChatModel.builder()
            .baseUrl(baseUrl)
            .modelName(name)
            .numCtx(context)
            .timeout(Duration.ofMinutes(5))
            .build(),
        context);
    found = m;
    return m;
  }

  /**
   * The model's own context length, from {@code /api/show} ({@code model_info}'s {@code
   * <family>.context_length}); the default when the server does not say.
   */
  private int ownContext(String name) {
    try {
      var info = OllamaModels.builder()
          .baseUrl(baseUrl)
          .timeout(timeout)
          .maxRetries(0)
          .build()
          .modelCard(name)
          .content()
          .getModelInfo();
      if (info != null)
        for (var e : info.entrySet())
          if (e.getKey().endsWith(".context_length")
              && e.getValue() instanceof Number n
              && n.intValue() > 0) return n.intValue();
    } catch (RuntimeException e) {
      // a server that cannot describe the model: the default
    }
    return Model.DEFAULT_CONTEXT_TOKENS;
  }

  private String discover() {
    OllamaModels models =
        OllamaModels.builder().baseUrl(baseUrl).timeout(timeout).maxRetries(0).build();
    List<OllamaModel> listed;
    try {
      listed = models.availableModels().content();
    } catch (RuntimeException e) {
      throw new ModelUnavailableException(
          "No model server answers at " + baseUrl + ". " + ModelServer.howToGetOne(SUGGESTED_MODEL),
          e);
    }
    for (OllamaModel model : listed) {
      try {
        OllamaModelCard card = models.modelCard(model.getName()).content();
        if (card.getCapabilities() != null && card.getCapabilities().contains("tools"))
          return model.getName();
      } catch (RuntimeException e) {
        // a model the server cannot describe is skipped
      }
    }
    throw new ModelUnavailableException("The model server at " + baseUrl
        + " has no model that can call tools"
        + (listed.isEmpty()
            ? ""
            : " (it has: "
                + String.join(", ", listed.stream().map(OllamaModel::getName).toList()) + ")")
        + ". Run: ollama pull " + SUGGESTED_MODEL
        + " — or set \"model\" in config/settings.json or STEWARD_MODEL.\n"
        + "Meanwhile /help, /tools and /call <tool> <json> work.");
  }
}
