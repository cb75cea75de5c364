package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;

/** {@link PackCalls} over the ui connection. */
public final class ClientPackCalls implements PackCalls {

  private final StewardClient ui;

  public ClientPackCalls(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public JsonNode call(String method) {
    return ui.call(method, Json.object(), JsonNode.class);
  }
}
