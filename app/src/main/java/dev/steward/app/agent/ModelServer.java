package dev.steward.app.agent;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Where the model runs: the kind of server, its address, the model asked for (empty: the first
 * suitable one the server lists), its key where it wants one, and the context to run it with in
 * tokens (0: what the server says, within {@link ModelSource.Model#DEFAULT_CONTEXT_TOKENS}).
 */
public record ModelServer(
    Kind kind, String url, @Nullable String model, @Nullable String key, int contextTokens) {

  public ModelServer(Kind kind, String url, @Nullable String model, @Nullable String key) {
    this(kind, url, model, key, 0);
  }

  /** The two ways local models are served. */
  public enum Kind {
    /** Ollama's own API ({@code /api/chat}), which says which models call tools. */
    OLLAMA,
    /** The OpenAI chat completions API: LM Studio, llama-server, vLLM, Jan, LocalAI, Ollama. */
    OPENAI_COMPATIBLE
  }

  public ModelSource source(Duration timeout) {
    return kind == Kind.OPENAI_COMPATIBLE
        ? new OpenAiModelSource(url, model, key, contextTokens, timeout)
        : new OllamaModelSource(url, model, contextTokens, timeout);
  }

  /** What the banner says when no model answers: both ways to get one. */
  static String howToGetOne(String suggestion) {
    return "To chat with Steward, either:\n"
        + "• install Ollama (https://ollama.com/download), start it and run: ollama pull "
        + suggestion + ", or\n"
        + "• start any OpenAI-compatible server (LM Studio, llama-server, vLLM, Jan, LocalAI) with"
        + " a model that calls tools,\n"
        + "then choose it in Settings → Model (Find servers looks on the usual ports).\n"
        + "Meanwhile /help, /tools and /call <tool> <json> work.";
  }
}
