package dev.steward.service.tools;

import java.util.Optional;

/**
 * The secrets a pack needs (a password, an API key), read from {@code config/secrets.json} by
 * section and key. A pack uses them to reach its back end and never puts them in a result, a log
 * line or anything the model reads.
 */
@FunctionalInterface
public interface PackSecrets {

  Optional<String> get(String section, String key);

  static PackSecrets none() {
    return (section, key) -> Optional.empty();
  }
}
