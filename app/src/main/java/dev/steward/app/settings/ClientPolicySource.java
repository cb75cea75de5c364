package dev.steward.app.settings;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.policy.PolicyDocument;

/** {@link PolicySource} over the ui connection. */
public final class ClientPolicySource implements PolicySource {

  private final StewardClient ui;

  public ClientPolicySource(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public PolicyDocument get() {
    return ui.call(Methods.POLICY_GET, Json.object(), PolicyDocument.class);
  }

  @Override
  public PolicyDocument update(PolicyDocument policy) {
    return ui.call(Methods.POLICY_UPDATE, Json.tree(policy), PolicyDocument.class);
  }
}
