package dev.steward.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The model server's key, where one wants it: {@code config/secrets.json} under {@code
 * model.api_key} (SPEC §14), written owner-only with the packs' secrets beside it left as they are.
 * The key goes to the server and nowhere else: not into settings, a prompt, or the window — and
 * not to another server: it is kept with the origin (scheme, host, port) of the server it was saved
 * for ({@code model.api_key_origin}), and given only for an address of that origin.
 */
public final class ModelKey {

  private final Path file;

  public ModelKey(Path secretsFile) {
    this.file = secretsFile;
  }

  /** Whether a key is saved, for whichever server (most local servers want none). */
  public boolean saved() throws IOException {
    JsonNode key = secrets().path("model").path("api_key");
    return key.isTextual() && !key.asText().isBlank();
  }

  /** The key, when one was saved for the origin of {@code serverUrl}; else empty. */
  public Optional<String> readFor(String serverUrl) throws IOException {
    JsonNode model = secrets().path("model");
    JsonNode key = model.path("api_key");
    String origin = origin(serverUrl);
    if (!key.isTextual() || key.asText().isBlank() || origin == null) return Optional.empty();
    return origin.equals(model.path("api_key_origin").asText(null))
        ? Optional.of(key.asText().strip())
        : Optional.empty();
  }

  /** The origin the saved key is for, or empty when none is saved. */
  public Optional<String> savedFor() throws IOException {
    JsonNode model = secrets().path("model");
    return saved() && model.path("api_key_origin").isTextual()
        ? Optional.of(model.path("api_key_origin").asText())
        : Optional.empty();
  }

  /**
   * A key saved before keys kept their server's origin is taken to be for the server the settings
   * name now ({@code serverUrl}), the one it was saved with.
   */
  public synchronized void adopt(String serverUrl) throws IOException {
    ObjectNode secrets = secrets();
    String origin = origin(serverUrl);
    if (!(secrets.get("model") instanceof ObjectNode model)
        || !model.path("api_key").isTextual()
        || model.has("api_key_origin")
        || origin == null) return;
    model.put("api_key_origin", origin);
    save(secrets);
  }

  /** Sets the key for the server at {@code serverUrl}, or removes it when {@code key} is blank. */
  public synchronized void write(String key, String serverUrl) throws IOException {
    ObjectNode secrets = secrets();
    String origin = origin(serverUrl);
    if (key.isBlank() || origin == null) {
      if (secrets.get("model") instanceof ObjectNode model) {
        model.remove("api_key");
        model.remove("api_key_origin");
      }
    } else {
      JsonNode model = secrets.get("model");
      (model instanceof ObjectNode o ? o : secrets.putObject("model"))
          .put("api_key", key.strip())
          .put("api_key_origin", origin);
    }
    save(secrets);
  }

  /** Forgets the key. */
  public void remove() throws IOException {
    write("", "");
  }

  /** {@code scheme://host:port} of an http(s) address, lower case, the port said; else null. */
  static @Nullable String origin(String url) {
    try {
      java.net.URI uri = new java.net.URI(url.strip());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) return null;
      int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
      return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    } catch (java.net.URISyntaxException e) {
      return null;
    }
  }

  private void save(ObjectNode secrets) throws IOException {
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
