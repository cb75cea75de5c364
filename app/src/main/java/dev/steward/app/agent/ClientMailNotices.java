package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import java.util.UUID;

/** {@link MailNotices.Service} over the ui connection; a mailbox not set up has no count. */
public final class ClientMailNotices implements MailNotices.Service {

  private final StewardClient ui;
  private final ClientMailbox mailbox;

  public ClientMailNotices(StewardClient ui) {
    this.ui = ui;
    this.mailbox = new ClientMailbox(ui);
  }

  @Override
  public JsonNode status() {
    try {
      return ui.call("mail.status", Json.object(), JsonNode.class);
    } catch (ClientException e) {
      return Json.object();
    }
  }

  @Override
  public JsonNode newest(int limit) {
    return mailbox.pending(limit);
  }

  @Override
  public void notify(String title, String body) {
    String id = "mail-notice-" + UUID.randomUUID();
    ui.call(
        Methods.TOOL_EXECUTE,
        new Execute.Params(
            id, id, "notify.send", Json.object().put("title", title).put("body", body), null, null),
        JsonNode.class);
  }
}
