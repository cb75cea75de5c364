package dev.steward.app.settings;

import org.jspecify.annotations.Nullable;

/**
 * The service's {@code secrets.set} (ui role): a pack's password or key goes to {@code
 * config/secrets.json} and is never read back; {@code null} removes it. Throws with the service's
 * reason when it is refused.
 */
@FunctionalInterface
public interface SecretsSink {

  void set(String section, String key, @Nullable String value);
}
