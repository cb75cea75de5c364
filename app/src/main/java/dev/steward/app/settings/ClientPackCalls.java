package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;

/** {@link PackCalls} over the ui connection. */
public final class ClientPackCalls implements PackCalls {

  private final StewardClient ui;

  public ClientPackCalls(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public JsonNode call(String method, JsonNode params) {
    return ui.call(method, params, JsonNode.class);
  }
}
