package dev.steward.app.agent;

import dev.langchain4j.model.catalog.ModelDescription;
import dev.langchain4j.model.openai.OpenAiModelCatalog;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A model behind any server that speaks OpenAI's chat completions API, through langchain4j-open-ai
 * unchanged. Such servers do not say which models call tools, so with no model configured the
 * first one listed at {@code /v1/models} is used. As with Ollama, the answer is kept once found and
 * a failure is not.
 */
public final class OpenAiModelSource implements ModelSource {

  private final String baseUrl;
  private final @Nullable String configured;
  private final @Nullable String key;
  private final Duration timeout;
  private final int contextTokens;
  private volatile @Nullable Model found;

  public OpenAiModelSource(
      String baseUrl, @Nullable String configuredModel, @Nullable String key, Duration timeout) {
    this(baseUrl, configuredModel, key, 0, timeout);
  }

  /**
   * @param contextTokens the context the server runs the model with (0: {@link
   *     Model#DEFAULT_CONTEXT_TOKENS}; a server that refuses a request as too long teaches the
   *     agent a smaller one)
   */
  public OpenAiModelSource(
      String baseUrl,
      @Nullable String configuredModel,
      @Nullable String key,
      int contextTokens,
      Duration timeout) {
    this.contextTokens = contextTokens > 0 ? contextTokens : Model.DEFAULT_CONTEXT_TOKENS;
    this.baseUrl = baseUrl;
    this.configured = configuredModel;
    this.key = key;
    this.timeout = timeout;
  }

  @Override
  public Model model() {
    Model m = found;
    if (m != null) return m;
    String name = configured != null ? configured : discover();
    OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder chat =
        OpenAiStreamingChatModel.builder()
            .baseUrl(baseUrl)
            .modelName(name)
            .timeout(Duration.ofMinutes(5));
    if (key != null) chat.apiKey(key);
    m = new Model(name, chat.build(), contextTokens);
    found = m;
    return m;
  }

  private String discover() {
    List<String> listed = list(baseUrl, key, timeout);
    if (listed.isEmpty())
      throw new ModelUnavailableException("The server at " + baseUrl
          + " lists no models: load one in it (LM Studio: Developer → Load; llama-server: -m"
          + " <file>), or set \"model\" in config/settings.json.");
    return listed.get(0);
  }

  /** The models the server lists at {@code /v1/models}; throws saying how when none answers. */
  static List<String> list(String baseUrl, @Nullable String key, Duration timeout) {
    try {
      OpenAiModelCatalog.Builder catalog = OpenAiModelCatalog.builder()
          .baseUrl(baseUrl)
          .connectTimeout(timeout)
          .readTimeout(timeout);
      if (key != null) catalog.apiKey(key);
      return catalog.build().listModels().stream().map(ModelDescription::name).toList();
    } catch (RuntimeException e) {
      throw new ModelUnavailableException(
          "No OpenAI-compatible server answers at " + baseUrl + " (" + CallRunner.message(e)
              + ").\n" + ModelServer.howToGetOne(OllamaModelSource.SUGGESTED_MODEL),
          e);
    }
  }
}
