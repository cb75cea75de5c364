package dev.steward.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The model server's key, where one wants it: {@code config/secrets.json} under {@code
 * model.api_key} (SPEC §14), written owner-only with the packs' secrets beside it left as they are.
 * The key goes to the server and nowhere else: not into settings, a prompt, or the window.
 */
public final class ModelKey {

  private final Path file;

  public ModelKey(Path secretsFile) {
    this.file = secretsFile;
  }

  /** The key, or empty when none is set (most local servers want none). */
  public Optional<String> read() throws IOException {
    JsonNode key = secrets().path("model").path("api_key");
    return key.isTextual() && !key.asText().isBlank()
        ? Optional.of(key.asText().strip())
        : Optional.empty();
  }

  /** Sets the key, or removes it when {@code key} is blank. */
  public synchronized void write(String key) throws IOException {
    ObjectNode secrets = secrets();
    if (key.isBlank()) {
      if (secrets.get("model") instanceof ObjectNode model) model.remove("api_key");
    } else {
      JsonNode model = secrets.get("model");
      (model instanceof ObjectNode o ? o : secrets.putObject("model")).put("api_key", key.strip());
    }
    AtomicFiles.write(
        file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(secrets), true);
  }

  private ObjectNode secrets() throws IOException {
    try {
      JsonNode node = Json.parse(Files.readString(file));
      if (node instanceof ObjectNode object) return object;
      throw new IOException(file + " holds a JSON object");
    } catch (NoSuchFileException e) {
      return Json.object();
    }
  }
}
