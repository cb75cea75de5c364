package dev.steward.app.settings;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Methods;
import org.jspecify.annotations.Nullable;

/** {@link SecretsSink} over the ui connection. */
public final class ClientSecretsSink implements SecretsSink {

  private final StewardClient ui;

  public ClientSecretsSink(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public void set(String section, String key, @Nullable String value) {
    var params = Json.object().put("section", section).put("key", key);
    if (value == null) params.putNull("value");
    else params.put("value", value);
    ui.await(ui.call(Methods.SECRETS_SET, params));
  }
}
