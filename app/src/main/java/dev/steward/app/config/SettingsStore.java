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
 * Reads and writes {@code config/settings.json}; {@code STEWARD_OLLAMA_URL} and {@code
 * STEWARD_MODEL} override what the file says. A file that cannot be read never stops the window
 * from opening: the defaults are used and {@link Loaded#problem()} says why.
 */
public final class SettingsStore {

  /** The settings in effect and, when the file could not be used, what was wrong with it. */
  public record Loaded(AppSettings settings, @Nullable String problem) {}

  private static final String URL = "STEWARD_OLLAMA_URL";
  private static final String MODEL = "STEWARD_MODEL";

  private final Path file;
  private final Map<String, String> env;

  public SettingsStore(StewardPlaces places, Map<String, String> env) {
    this.file = places.settingsFile();
    this.env = env;
  }

  public Loaded load() {
    Loaded file = loadFile();
    return new Loaded(withEnv(file.settings()), file.problem());
  }

  /**
   * Changes what the file says, and only that, and answers the settings now in effect. A value
   * the environment overrides is not written by a change that leaves it as the override: the file
   * keeps the user's own.
   */
  public synchronized AppSettings update(UnaryOperator<AppSettings> change) throws IOException {
    AppSettings own = loadFile().settings();
    AppSettings next = change.apply(withEnv(own));
    String url = env.get(URL);
    if (url != null && !url.isBlank() && next.ollamaUrl().equals(url.strip()))
      next = next.withOllamaUrl(own.ollamaUrl());
    String model = env.get(MODEL);
    if (model != null && !model.isBlank() && model.equals(next.model()))
      next = next.withModel(own.model());
    save(next);
    return withEnv(next);
  }

  private AppSettings withEnv(AppSettings settings) {
    String url = env.get(URL);
    if (url != null && !url.isBlank()) settings = settings.withOllamaUrl(url);
    String model = env.get(MODEL);
    if (model != null && !model.isBlank()) settings = settings.withModel(model);
    return settings;
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
