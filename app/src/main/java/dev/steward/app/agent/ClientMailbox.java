package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;

/**
 * {@link MailSummaries.Mailbox} over the ui connection. A mailbox that is not set up has nothing
 * pending.
 */
public final class ClientMailbox implements MailSummaries.Mailbox {

  private final StewardClient ui;

  public ClientMailbox(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public JsonNode pending(int limit) {
    try {
      return ui.call("mail.pending_summaries", Json.object().put("limit", limit), JsonNode.class);
    } catch (ClientException e) {
      return Json.object();
    }
  }

  @Override
  public void summarise(String mailId, String summary) {
    ui.call(
        "mail.set_summary",
        Json.object().put("mail_id", mailId).put("summary", summary),
        JsonNode.class);
  }
}
