package dev.steward.service.tools.mail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;

/**
 * {@code mail.read}: one kept mail, its text in full up to {@value #MAX_TEXT} characters and its
 * attachments by name, size and type. The text is a stranger's: it taints the conversation, and
 * the dialog of a later call names the sender.
 */
final class MailRead extends MailTool {

  static final int MAX_TEXT = 100_000;

  MailRead(Mailbox mailbox) {
    super("mail.read", mailbox);
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    String id = args.path("mail_id").asText();
    String from = "";
    try {
      from = mailbox.store().get(id).map(MailStore.Stored::from).orElse("");
    } catch (ToolFailure | SQLException e) {
      // the mail is named by its id instead
    }
    // The bare address: a display name is the stranger's own words, shown in the next dialog;
    // a sender that is not one plain address is no name for it either.
    String address = MimeReader.clean(MimeReader.address(from), 120);
    return Optional.of(plainAddress(address) ? "mail from " + address : "mail " + id);
  }

  private static boolean plainAddress(String address) {
    return address.length() <= 120
        && address.matches("[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+\\.[A-Za-z0-9-]+");
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    String id = args.path("mail_id").asText();
    MailStore store = mailbox.store();
    MailStore.Stored mail;
    String text;
    try {
      mail = store
          .get(id)
          .orElseThrow(() -> new ToolFailure(
              ToolErrorCodes.NOT_FOUND,
              "there is no mail " + id + " (mail.search lists them)",
              "/mail_id",
              null));
      text = store.text(id, MAX_TEXT + 1);
    } catch (SQLException | IOException e) {
      throw Mailbox.failure("the mail " + id + " cannot be read", e);
    }
    boolean truncated = text.length() > MAX_TEXT;
    ObjectNode result = Json.object();
    result.put("mail_id", id);
    result.put("from", mail.from());
    ArrayNode to = result.putArray("to");
    mail.to().forEach(to::add);
    result.put("subject", mail.subject());
    result.put("date", mail.date().toString());
    result.put("text", truncated ? text.substring(0, MAX_TEXT) : text);
    result.put("truncated", truncated);
    ArrayNode attachments = result.putArray("attachments");
    for (MailStore.StoredAttachment a : mail.attachments()) {
      attachments.addObject().put("name", a.name()).put("size", a.size()).put("type", a.type());
    }
    return result;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "mail " + args.path("mail_id").asText() + ", "
        + Counted.of(value.path("text").asText().length(), "character", "characters") + ", "
        + Counted.of(value.path("attachments").size(), "attachment", "attachments");
  }
}
