package dev.steward.app.config;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The app's own settings ({@code config/settings.json}, SPEC §9). {@code model} may be empty: then
 * the first tool-capable model the server lists is used. {@code confirmTtlS} is how long an
 * approval dialog stays open, which is also the lifetime of the token it mints.
 */
public record AppSettings(
    String ollamaUrl,
    @Nullable String model,
    String hotkey,
    String theme,
    int confirmTtlS,
    int stepLimit) {

  public static final String DEFAULT_URL = "http://localhost:11434";
  public static final int DEFAULT_CONFIRM_TTL_S = 120;
  public static final int DEFAULT_STEP_LIMIT = 10;

  public AppSettings {
    ollamaUrl = Objects.requireNonNullElse(ollamaUrl, DEFAULT_URL).strip();
    if (ollamaUrl.isEmpty()) ollamaUrl = DEFAULT_URL;
    if (model != null && model.isBlank()) model = null;
    hotkey = Objects.requireNonNullElse(hotkey, "ctrl alt SPACE");
    theme = Objects.requireNonNullElse(theme, "light");
    // The service caps token lifetimes at 10 minutes; a dialog never outlives its token.
    if (confirmTtlS <= 0) confirmTtlS = DEFAULT_CONFIRM_TTL_S;
    confirmTtlS = Math.min(confirmTtlS, 600);
    if (stepLimit <= 0) stepLimit = DEFAULT_STEP_LIMIT;
  }

  public static AppSettings defaults() {
    return new AppSettings(
        DEFAULT_URL, null, "ctrl alt SPACE", "light", DEFAULT_CONFIRM_TTL_S, DEFAULT_STEP_LIMIT);
  }

  public AppSettings withOllamaUrl(String url) {
    return new AppSettings(url, model, hotkey, theme, confirmTtlS, stepLimit);
  }

  public AppSettings withModel(@Nullable String name) {
    return new AppSettings(ollamaUrl, name, hotkey, theme, confirmTtlS, stepLimit);
  }

  public AppSettings withHotkey(String keys) {
    return new AppSettings(ollamaUrl, model, keys, theme, confirmTtlS, stepLimit);
  }

  public AppSettings withTheme(String name) {
    return new AppSettings(ollamaUrl, model, hotkey, name, confirmTtlS, stepLimit);
  }
}
