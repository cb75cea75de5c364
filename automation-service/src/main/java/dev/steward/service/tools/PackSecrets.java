package dev.steward.service.tools;

import java.io.IOException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The secrets a pack needs (a password, an API key), read from {@code config/secrets.json} by
 * section and key. A pack uses them to reach its back end and never puts them in a result, a log
 * line or anything the model reads.
 */
@FunctionalInterface
public interface PackSecrets {

  Optional<String> get(String section, String key);

  /**
   * Sets one value of the pack's own section, or removes it when {@code value} is null, for a
   * pack's window method that keeps what the user typed (ui role only); answers whether it is now
   * set. Read-only secrets refuse.
   */
  default boolean set(String section, String key, @Nullable String value) throws IOException {
    throw new IOException("secrets cannot be written here");
  }

  static PackSecrets none() {
    return (section, key) -> Optional.empty();
  }
}
