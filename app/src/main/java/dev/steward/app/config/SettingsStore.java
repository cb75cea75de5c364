package dev.steward.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes {@code config/settings.json}; {@code STEWARD_PROVIDER}, {@code
 * STEWARD_OLLAMA_URL}, {@code STEWARD_OPENAI_URL} and {@code STEWARD_MODEL} override what the file
 * says. A file that cannot be read never stops the window
 * from opening: the defaults are used and {@link Loaded#problem()} says why.
 */
public final class SettingsStore {

  /** The settings in effect and, when the file could not be used, what was wrong with it. */
  public record Loaded(AppSettings settings, @Nullable String problem) {}

  /** A setting the environment can override: its variable, how to read it, how to set it. */
  private record Override(
      String variable,
      java.util.function.Function<AppSettings, @Nullable String> value,
      java.util.function.BiFunction<AppSettings, @Nullable String, AppSettings> with) {}

  private static final java.util.List<Override> OVERRIDES = java.util.List.of(
      new Override("STEWARD_PROVIDER", AppSettings::provider, AppSettings::withProvider),
      new Override("STEWARD_OLLAMA_URL", AppSettings::ollamaUrl, AppSettings::withOllamaUrl),
      new Override("STEWARD_OPENAI_URL", AppSettings::openaiUrl, AppSettings::withOpenaiUrl),
      new Override("STEWARD_MODEL", AppSettings::model, AppSettings::withModel));

  private final Path file;
  private final Map<String, String> env;

  public SettingsStore(StewardPlaces places, Map<String, String> env) {
    this.file = places.settingsFile();
    this.env = env;
  }

  public Loaded load() {
    Loaded file = loadFile();
    try {
      return new Loaded(withEnv(file.settings()), file.problem());
    } catch (IllegalArgumentException e) {
      return new Loaded(
          file.settings(), "The environment's model settings were ignored: " + e.getMessage());
    }
  }

  /** What the file itself says, without the environment; empty when there is none, or unread. */
  public java.util.Optional<AppSettings> own() {
    if (!Files.exists(file)) return java.util.Optional.empty();
    Loaded own = loadFile();
    return own.problem() == null
        ? java.util.Optional.of(own.settings())
        : java.util.Optional.empty();
  }

  /**
   * Changes what the file says, and only that, and answers the settings now in effect. A value
   * the environment overrides is not written by a change that leaves it as the override: the file
   * keeps the user's own.
   */
  public synchronized AppSettings update(UnaryOperator<AppSettings> change) throws IOException {
    AppSettings own = loadFile().settings();
    AppSettings next = change.apply(withEnv(own));
    for (Override o : OVERRIDES) {
      String forced = forced(o);
      if (forced != null && forced.equals(o.value().apply(next)))
        next = o.with().apply(next, o.value().apply(own));
    }
    save(next);
    return withEnv(next);
  }

  private AppSettings withEnv(AppSettings settings) {
    for (Override o : OVERRIDES) {
      String forced = forced(o);
      if (forced != null) settings = o.with().apply(settings, forced);
    }
    return settings;
  }

  private @Nullable String forced(Override o) {
    String value = env.get(o.variable());
    return value == null || value.isBlank() ? null : value.strip();
  }

  private Loaded loadFile() {
    AppSettings settings = AppSettings.defaults();
    String problem = null;
    try {
      byte[] bytes = Files.readAllBytes(file);
      JsonNode node = Json.strictMapper().readTree(bytes);
      settings = Json.strictMapper().treeToValue(withDefaults(node), AppSettings.class);
    } catch (NoSuchFileException e) {
      // first start: defaults
    } catch (IOException | IllegalArgumentException e) {
      problem = file + " could not be read (" + firstLine(e.getMessage()) + "); using the defaults";
    }
    return new Loaded(settings, problem);
  }

  public void save(AppSettings settings) throws IOException {
    byte[] bytes = Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(settings);
    AtomicFiles.write(file, bytes, true);
  }

  private static JsonNode withDefaults(JsonNode node) {
    if (!(node instanceof ObjectNode object)) {
      throw new IllegalArgumentException("settings.json holds a JSON object");
    }
    ObjectNode merged = (ObjectNode) Json.tree(AppSettings.defaults());
    merged.setAll(object);
    return merged;
  }

  private static String firstLine(@Nullable String text) {
    if (text == null) return "unreadable";
    int nl = text.indexOf('\n');
    return (nl < 0 ? text : text.substring(0, nl)).strip();
  }
}
