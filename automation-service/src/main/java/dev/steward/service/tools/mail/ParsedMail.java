package dev.steward.service.tools.mail;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A message as the pack keeps it: who sent it to whom, its subject and date ({@code null} when
 * the message has none that can be read), its Message-ID, its readable text and its attachments.
 */
record ParsedMail(
    String from,
    List<String> to,
    String subject,
    @Nullable Instant date,
    @Nullable String messageId,
    String text,
    List<Attachment> attachments) {

  ParsedMail {
    to = List.copyOf(to);
    attachments = List.copyOf(attachments);
  }

  /** An attachment: its name as the sender gave it (cleaned), its MIME type and its bytes. */
  record Attachment(String name, String type, byte[] content) {}
}
