package dev.steward.app.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where the window was and how big ({@code config/window.json}), so the next start opens it
 * there. A file that cannot be read is no placement: the window then opens at its default.
 */
public record WindowPlacement(
    @JsonProperty("x") double x,
    @JsonProperty("y") double y,
    @JsonProperty("width") double width,
    @JsonProperty("height") double height,
    @JsonProperty("maximized") boolean maximized) {

  private static final Logger LOG = Logger.getLogger(WindowPlacement.class.getName());
  static final String FILE = "window.json";

  public static Optional<WindowPlacement> load(Path configDir) {
    Path file = configDir.resolve(FILE);
    if (!Files.exists(file)) return Optional.empty();
    try {
      WindowPlacement p =
          Json.strictMapper().readValue(Files.readAllBytes(file), WindowPlacement.class);
      return p.width() > 0 && p.height() > 0 ? Optional.of(p) : Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      LOG.log(Level.INFO, "window placement: " + file + " is not usable; the default is used", e);
      return Optional.empty();
    }
  }

  public void save(Path configDir) {
    try {
      AtomicFiles.write(configDir.resolve(FILE), Json.mapper().writeValueAsBytes(this), true);
    } catch (IOException e) {
      LOG.log(Level.INFO, "window placement: cannot save", e);
    }
  }
}
