package dev.steward.app.settings;

import dev.steward.protocol.client.ClientException;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.jspecify.annotations.Nullable;

/**
 * How the settings sections hand passwords and keys to the service's {@code secrets.set}: off the
 * UI thread, then back on it — told whether anything was written, or given the service's reason.
 */
final class SecretsWriter {

  private final Executor background;
  private final Executor ui;
  private @Nullable SecretsSink sink;

  SecretsWriter(Executor background, Executor ui) {
    this.background = background;
    this.ui = ui;
  }

  void attach(SecretsSink sink) {
    this.sink = sink;
  }

  /**
   * Sets each of {@code values} under {@code section}; {@code done} hears {@code true} once they
   * are written, {@code false} at once when there is nothing to write (or no service yet).
   */
  void write(
      String section,
      Map<String, String> values,
      ReadOnlyStringWrapper error,
      Consumer<Boolean> done) {
    SecretsSink s = sink;
    if (values.isEmpty() || s == null) {
      done.accept(false);
      return;
    }
    background.execute(() -> {
      try {
        values.forEach((key, value) -> s.set(section, key, value));
        ui.execute(() -> done.accept(true));
      } catch (ClientException | IllegalArgumentException e) {
        var rpc = e instanceof ClientException ce ? ce.rpcError() : null;
        String why = rpc != null ? rpc.message() : String.valueOf(e.getMessage());
        ui.execute(() -> error.set(why));
      }
    });
  }

  /** An account's user name and password as typed (an empty field keeps what is set). */
  static Map<String, String> account(String username, String password) {
    Map<String, String> typed = new java.util.LinkedHashMap<>();
    if (!username.isBlank()) typed.put("username", username.strip());
    if (!password.isEmpty()) typed.put("password", password);
    return typed;
  }

  /**
   * Saves a section's policy change, then its account (user name and password as typed): the
   * typed fields are cleared once written, and {@code status} says where the password went.
   */
  void saveWithAccount(
      PolicyEditor policy,
      java.util.function.UnaryOperator<dev.steward.protocol.policy.PolicyDocument> edit,
      String section,
      javafx.beans.property.StringProperty username,
      javafx.beans.property.StringProperty password,
      ReadOnlyStringWrapper status,
      ReadOnlyStringWrapper error) {
    Map<String, String> typed = account(username.get(), password.get());
    status.set("");
    error.set("");
    policy.change(
        edit,
        error,
        () -> write(section, typed, error, written -> {
          if (written) {
            username.set("");
            password.set("");
          }
          status.set(written ? "Saved; the password is kept in config/secrets.json" : "Saved");
        }));
  }
}
