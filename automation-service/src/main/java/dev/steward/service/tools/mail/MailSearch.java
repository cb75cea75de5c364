package dev.steward.service.tools.mail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code mail.search}: a keyword search over the subjects and summaries of the mail kept, every
 * word required, newest first. Subjects are the senders' words and summaries are drawn from their
 * text (or written by a model that read it): an injection fits in either, so the results taint
 * as {@code mail.read}'s text does (SPEC §10: mail is untrusted content).
 */
final class MailSearch extends MailTool {

  MailSearch(Mailbox mailbox) {
    super("mail.search", mailbox);
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.of("mail search results (subjects and summaries of forwarded mail)");
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    List<String> words = Arrays.stream(args.path("query").asText().strip().split("\\s+"))
        .filter(w -> !w.isEmpty())
        .limit(20)
        .toList();
    Instant since = since(args.path("since").isTextual() ? args.path("since").asText() : null);
    int max = args.path("max_results").asInt(10);
    List<MailStore.Found> found;
    try {
      found = mailbox.store().search(words, since, max);
    } catch (SQLException e) {
      throw Mailbox.failure("the mail store cannot be searched", e);
    }
    ObjectNode result = Json.object();
    ArrayNode mails = result.putArray("mails");
    for (MailStore.Found f : found) {
      mails
          .addObject()
          .put("mail_id", f.mailId())
          .put("from", f.from())
          .put("subject", f.subject())
          .put("date", f.date().toString())
          .put("summary", f.summary());
    }
    return result;
  }

  /** A day (from its start, in this machine's zone) or an instant; null for none. */
  static @Nullable Instant since(@Nullable String text) throws ToolFailure {
    if (text == null) return null;
    try {
      if (text.length() == 10)
        return LocalDate.parse(text).atStartOfDay(ZoneId.systemDefault()).toInstant();
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "since is a day (2026-03-01) or an instant with its offset (2026-03-01T08:00:00Z)",
          "/since",
          null);
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(value.path("mails").size(), "mail", "mails");
  }
}
