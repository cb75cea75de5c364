package dev.steward.service.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.PackSecrets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@code config/secrets.json} (0600, SPEC §13): the packs' passwords and keys, by section ({@code
 * {"household": {"username": "...", "password": "..."}}}). Only the window writes it ({@code
 * secrets.set}); nothing reads a value back out over the wire, and no value is ever logged.
 */
public final class SecretsFile implements PackSecrets {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
  private static final int MAX_VALUE = 16_384;

  private final Path file;

  public SecretsFile(Path file) {
    this.file = file;
  }

  @Override
  public synchronized Optional<String> get(String section, String key) {
    try {
      JsonNode v = read().path(section).path(key);
      return v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    } catch (IOException e) {
      // An unreadable file sets nothing: the pack says what it misses.
      return Optional.empty();
    }
  }

  /** Sets one value, or removes it when {@code value} is null; answers whether it is now set. */
  @Override
  public synchronized boolean set(String section, String key, @Nullable String value)
      throws IOException {
    if (!NAME.matcher(section).matches() || !NAME.matcher(key).matches()) {
      throw new IllegalArgumentException(
          "a section and a key are lower-case names (letters, digits, _)");
    }
    if (value != null && value.length() > MAX_VALUE) {
      throw new IllegalArgumentException("a secret is at most " + MAX_VALUE + " characters");
    }
    ObjectNode all = read();
    ObjectNode bySection = all.path(section) instanceof ObjectNode o ? o : all.putObject(section);
    if (value == null) bySection.remove(key);
    else bySection.put(key, value);
    if (bySection.isEmpty()) all.remove(section);
    Files.createDirectories(file.getParent());
    AtomicFiles.write(file, Json.pretty(all).getBytes(StandardCharsets.UTF_8), true);
    Owner.restrict(file, false);
    return value != null;
  }

  /** The file's content; one that cannot be read is an error, so a set never drops the others. */
  private ObjectNode read() throws IOException {
    if (!Files.exists(file)) return Json.object();
    String text = Files.readString(file, StandardCharsets.UTF_8);
    com.fasterxml.jackson.databind.JsonNode root;
    try {
      root = Json.parse(text);
    } catch (IOException | RuntimeException e) {
      // A parser's message quotes the file's text, which holds the secrets: it goes no further.
      throw new IOException("config/secrets.json is not valid JSON; fix or remove it");
    }
    if (root instanceof ObjectNode o) return o;
    throw new IOException("config/secrets.json does not hold a JSON object");
  }
}
