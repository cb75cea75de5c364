package dev.steward.service.tools.mail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolPack;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The mail pack (SPEC §13): {@code mail.search}, {@code mail.read} and {@code mail.send} over a
 * dedicated mailbox, its new mail read in the background. The window has four methods: {@code
 * mail.check} (test the connection), {@code mail.status} (what the ingestion is doing), {@code
 * mail.pending_summaries} and {@code mail.set_summary} (a model's summary in place of the
 * extractive one).
 */
public final class MailPack implements ToolPack {

  static final int MAX_SUMMARY = 1000;
  static final int PENDING_TEXT = 2000;

  private final Duration pollEvery;
  private @Nullable Mailbox mailbox;
  private @Nullable Ingester ingester;

  public MailPack() {
    this(Duration.ofSeconds(60));
  }

  MailPack(Duration pollEvery) {
    this.pollEvery = pollEvery;
  }

  @Override
  public String name() {
    return "mail";
  }

  @Override
  public List<Tool> tools(PackContext context) {
    MailSessions.prepare();
    Mailbox m = new Mailbox(context);
    mailbox = m;
    Ingester i = new Ingester(m::configured, m::open, pollEvery, Clock.systemUTC());
    ingester = i;
    context.onPolicyChange().accept(i::wake);
    return List.of(new MailSearch(m), new MailRead(m), new MailSend(m));
  }

  @Override
  public void start() {
    Ingester i = ingester;
    if (i != null) i.start();
  }

  @Override
  public List<PackMethod> methods() {
    return List.of(
        new PackMethod("mail.check", params -> check()),
        new PackMethod("mail.status", params -> status()),
        new PackMethod("mail.pending_summaries", this::pending),
        new PackMethod("mail.set_summary", this::setSummary));
  }

  private Mailbox mailbox() throws ToolFailure {
    Mailbox m = mailbox;
    if (m == null)
      throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the mail pack is not running");
    return m;
  }

  /** {@code {imap: "ok" | what failed, smtp: "ok" | what failed}}; a check also wakes the ingester. */
  private ConnectionCheck.Result check() throws ToolFailure {
    MailConfig.Configured c = mailbox().configured();
    MailConfig config = c.config();
    if (config == null) {
      String why = c.unavailable().orElse("not set up");
      return new ConnectionCheck.Result(why, why);
    }
    ConnectionCheck.Result result = ConnectionCheck.run(config);
    Ingester i = ingester;
    if (i != null && result.imap().equals(ConnectionCheck.OK)) i.wake();
    return result;
  }

  /** {@code {state, last_check, problem, mails}}: what the window shows under the settings. */
  private ObjectNode status() throws ToolFailure {
    Mailbox m = mailbox();
    Ingester i = ingester;
    Ingester.Status s = i == null ? new Ingester.Status("stopped", null, null) : i.status();
    ObjectNode out = Json.object();
    out.put("state", s.state());
    out.put("last_check", s.lastCheck() == null ? null : s.lastCheck().toString());
    out.put("problem", s.problem());
    try {
      out.put(
          "mails",
          m.unavailable().isPresent() && s.lastCheck() == null ? 0 : m.store().count());
    } catch (SQLException e) {
      throw Mailbox.failure("the mail store cannot be read", e);
    }
    return out;
  }

  /** {@code {limit?}} → {@code {mails: [{mail_id, from, subject, date, text}]}}, newest first. */
  private ObjectNode pending(JsonNode params) throws ToolFailure {
    int limit = params.path("limit").asInt(20);
    if (limit < 1 || limit > 200) {
      throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, "limit is 1–200");
    }
    List<MailStore.Pending> found;
    try {
      found = mailbox().store().pending(limit, PENDING_TEXT);
    } catch (SQLException | IOException e) {
      throw Mailbox.failure("the mail store cannot be read", e);
    }
    ObjectNode out = Json.object();
    ArrayNode mails = out.putArray("mails");
    for (MailStore.Pending p : found) {
      mails
          .addObject()
          .put("mail_id", p.mailId())
          .put("from", p.from())
          .put("subject", p.subject())
          .put("date", p.date().toString())
          .put("text", p.text());
    }
    return out;
  }

  /** {@code {mail_id, summary}} → {@code {mail_id, summary, summary_source: "model"}}. */
  private ObjectNode setSummary(JsonNode params) throws ToolFailure {
    String id = params.path("mail_id").asText("");
    if (!id.matches("[0-9a-f]{16}")) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "mail_id is a mail's id (16 hex digits)");
    }
    if (!params.path("summary").isTextual()) {
      throw new ToolFailure(ToolErrorCodes.VALIDATION_ERROR, "summary is text");
    }
    String summary = params.path("summary").asText().strip();
    if (summary.isEmpty() || summary.length() > MAX_SUMMARY) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "a summary is 1–" + MAX_SUMMARY + " characters");
    }
    // A model's line breaks become spaces; any other control character is refused, not kept.
    summary = summary.replaceAll("[\\r\\n\\t]+", " ");
    if (summary
        .chars()
        .anyMatch(ch -> Character.isISOControl(ch)
            || ch == 0x2028
            || ch == 0x2029
            || (ch >= 0x202A && ch <= 0x202E)
            || (ch >= 0x2066 && ch <= 0x2069))) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "a summary holds no control characters");
    }
    try {
      if (!mailbox().store().setSummary(id, summary)) {
        throw new ToolFailure(ToolErrorCodes.NOT_FOUND, "there is no mail " + id);
      }
    } catch (SQLException e) {
      throw Mailbox.failure("the summary cannot be kept", e);
    }
    ObjectNode out = Json.object();
    out.put("mail_id", id);
    out.put("summary", summary);
    out.put("summary_source", MailStore.MODEL);
    return out;
  }

  @Override
  public void close() {
    Ingester i = ingester;
    if (i != null) i.close();
    Mailbox m = mailbox;
    if (m != null) m.close();
  }
}
