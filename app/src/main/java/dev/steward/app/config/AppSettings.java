package dev.steward.app.config;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The app's own settings ({@code config/settings.json}, SPEC §9 and §14). {@code provider} is the
 * kind of model server: {@code ollama} at {@code ollamaUrl}, or {@code openai_compatible} at
 * {@code openaiUrl} (LM Studio, llama-server, vLLM, Jan, LocalAI, Ollama's own {@code /v1}).
 * {@code model} may be empty: then the first suitable model the server lists is used. {@code
 * confirmTtlS} is how long an approval dialog stays open, which is also the lifetime of the token it
 * mints. {@code contextTokens} is the model's context (0: what the server says, else 8192).
 */
public record AppSettings(
    String ollamaUrl,
    @Nullable String model,
    String hotkey,
    String theme,
    int confirmTtlS,
    int stepLimit,
    String provider,
    String openaiUrl,
    int contextTokens) {

  public static final String DEFAULT_URL = "http://localhost:11434";
  public static final String DEFAULT_OPENAI_URL = "http://127.0.0.1:1234/v1";
  public static final String OLLAMA = "ollama";
  public static final String OPENAI_COMPATIBLE = "openai_compatible";
  public static final Set<String> PROVIDERS = Set.of(OLLAMA, OPENAI_COMPATIBLE);
  public static final int DEFAULT_CONFIRM_TTL_S = 120;
  public static final int DEFAULT_STEP_LIMIT = 10;

  public AppSettings {
    ollamaUrl = orDefault(ollamaUrl, DEFAULT_URL);
    openaiUrl = orDefault(openaiUrl, DEFAULT_OPENAI_URL);
    provider = orDefault(provider, OLLAMA);
    if (!PROVIDERS.contains(provider))
      throw new IllegalArgumentException("provider is \"" + OLLAMA + "\" or \"" + OPENAI_COMPATIBLE
          + "\", not \"" + provider + "\"");
    if (model != null && model.isBlank()) model = null;
    hotkey = Objects.requireNonNullElse(hotkey, "ctrl alt SPACE");
    theme = Objects.requireNonNullElse(theme, "light");
    // The service caps token lifetimes at 10 minutes; a dialog never outlives its token.
    if (confirmTtlS <= 0) confirmTtlS = DEFAULT_CONFIRM_TTL_S;
    confirmTtlS = Math.min(confirmTtlS, 600);
    if (stepLimit <= 0) stepLimit = DEFAULT_STEP_LIMIT;
    if (contextTokens < 0) contextTokens = 0;
  }

  private static String orDefault(@Nullable String value, String fallback) {
    String v = Objects.requireNonNullElse(value, fallback).strip();
    return v.isEmpty() ? fallback : v;
  }

  public static AppSettings defaults() {
    return new AppSettings(
        DEFAULT_URL,
        null,
        "ctrl alt SPACE",
        "light",
        DEFAULT_CONFIRM_TTL_S,
        DEFAULT_STEP_LIMIT,
        OLLAMA,
        DEFAULT_OPENAI_URL,
        0);
  }

  /** The address of the server {@link #provider} names. */
  public String serverUrl() {
    return OPENAI_COMPATIBLE.equals(provider) ? openaiUrl : ollamaUrl;
  }

  public AppSettings withOllamaUrl(String url) {
    return new AppSettings(
        url, model, hotkey, theme, confirmTtlS, stepLimit, provider, openaiUrl, contextTokens);
  }

  public AppSettings withOpenaiUrl(String url) {
    return new AppSettings(
        ollamaUrl, model, hotkey, theme, confirmTtlS, stepLimit, provider, url, contextTokens);
  }

  public AppSettings withProvider(String name) {
    return new AppSettings(
        ollamaUrl, model, hotkey, theme, confirmTtlS, stepLimit, name, openaiUrl, contextTokens);
  }

  /** The server {@code provider} at {@code url}: the other provider's address is kept. */
  public AppSettings withServer(String name, String url) {
    AppSettings s = withProvider(name);
    return OPENAI_COMPATIBLE.equals(s.provider) ? s.withOpenaiUrl(url) : s.withOllamaUrl(url);
  }

  public AppSettings withModel(@Nullable String name) {
    return new AppSettings(
        ollamaUrl, name, hotkey, theme, confirmTtlS, stepLimit, provider, openaiUrl, contextTokens);
  }

  public AppSettings withHotkey(String keys) {
    return new AppSettings(
        ollamaUrl, model, keys, theme, confirmTtlS, stepLimit, provider, openaiUrl, contextTokens);
  }

  public AppSettings withTheme(String name) {
    return new AppSettings(
        ollamaUrl, model, hotkey, name, confirmTtlS, stepLimit, provider, openaiUrl, contextTokens);
  }
}
