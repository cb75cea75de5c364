package dev.steward.service.tools.mail;

import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolDefinitions;
import java.util.Optional;

/** A tool of the pack: its definition beside it, and unavailable until a mailbox is set up. */
abstract class MailTool extends BaseTool {

  protected final Mailbox mailbox;

  protected MailTool(String name, Mailbox mailbox) {
    super(ToolDefinitions.load(MailTool.class, name + ".json"));
    this.mailbox = mailbox;
  }

  @Override
  public Optional<String> unavailable() {
    return mailbox.unavailable();
  }
}
