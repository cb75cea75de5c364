package dev.steward.service.tools.mail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code mail.send}: a plain-text mail from the configured account over SMTP. It is {@code high}
 * and always asks, with an exact-arguments token: the dialog shows recipients, subject and text
 * exactly as they will go. The audit log keeps the recipients and a hash of the text, never the
 * text.
 */
final class MailSend extends MailTool {

  MailSend(Mailbox mailbox) {
    super("mail.send", mailbox);
  }

  @Override
  public Set<String> sensitiveArgs() {
    return Set.of("text");
  }

  @Override
  public Duration timeLimit() {
    return Duration.ofSeconds(60);
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ObjectNode p = Json.object();
    p.put("operation", "send mail");
    mailbox.configured().get().ifPresent(c -> {
      p.put("from", c.address());
      p.put("server", c.smtp().host() + ":" + c.smtp().port());
    });
    p.set("to", args.path("to").deepCopy());
    p.set("cc", args.has("cc") ? args.path("cc").deepCopy() : Json.mapper().createArrayNode());
    p.put("subject", args.path("subject").asText());
    p.put("text", args.path("text").asText());
    // Steward's sentence quotes no text the model wrote (a subject could end the quote and go on
    // in Steward's words); the subject and text stand in the arguments, as they will be sent.
    p.put(
        "says",
        "Send a mail to " + list(args.path("to"))
            + (args.path("cc").isEmpty() ? "" : ", copy to " + list(args.path("cc")))
            + p.path("from").asText("").transform(f -> f.isEmpty() ? "" : ", from " + f)
            + ": its subject and text are exactly as in the arguments");
    return Optional.of(p);
  }

  private static String list(JsonNode addresses) {
    List<String> all = new java.util.ArrayList<>();
    addresses.forEach(a -> all.add(a.asText()));
    return String.join(", ", all);
  }

  /** Before a dialog names them: only plain addresses, and a subject of one line. */
  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    addresses(args.path("to"), "/to");
    addresses(args.path("cc"), "/cc");
    if (args.path("subject").asText().chars().anyMatch(Character::isISOControl)) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "a subject is one line without control characters",
          "/subject",
          null);
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    MailConfig config = mailbox.config();
    List<InternetAddress> to = addresses(args.path("to"), "/to");
    List<InternetAddress> cc = addresses(args.path("cc"), "/cc");
    String subject = args.path("subject").asText();
    Session session = MailSessions.smtp(config.smtp(), config.address());
    MimeMessage message = new MimeMessage(session);
    String messageId;
    try {
      message.setFrom(new InternetAddress(config.address()));
      message.setRecipients(Message.RecipientType.TO, to.toArray(InternetAddress[]::new));
      if (!cc.isEmpty()) {
        message.setRecipients(Message.RecipientType.CC, cc.toArray(InternetAddress[]::new));
      }
      message.setSubject(subject, "UTF-8");
      message.setText(args.path("text").asText(), "UTF-8");
      message.setSentDate(new Date());
      message.saveChanges();
      messageId = message.getMessageID();
    } catch (MessagingException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR, "the mail cannot be made: " + e.getMessage());
    }
    try (Transport transport = session.getTransport()) {
      transport.connect(
          config.smtp().host(), config.smtp().port(), config.username(), config.password());
      transport.sendMessage(message, message.getAllRecipients());
    } catch (SendFailedException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the server refused to send it: "
              + ConnectionProblems.describe(e, config.smtp(), config.password()));
    } catch (MessagingException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the mail was not sent: "
              + ConnectionProblems.describe(e, config.smtp(), config.password()));
    }
    ObjectNode result = Json.object();
    result.put("message_id", messageId == null ? "" : messageId);
    return result;
  }

  /** Plain addresses only (no names, no groups, no lists in one string): what the user approved. */
  static List<InternetAddress> addresses(JsonNode list, String pointer) throws ToolFailure {
    List<InternetAddress> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String given = list.get(i).asText().strip();
      try {
        // Letters that look like others (a Cyrillic "а" in "exаmple.org") and invisible ones
        // would let the dialog show one address while the mail goes to another.
        if (!given.chars().allMatch(c -> c > 0x20 && c < 0x7f))
          throw new ToolFailure(
              ToolErrorCodes.VALIDATION_ERROR,
              "\"" + dev.steward.protocol.util.ShownText.escaped(MimeReader.clean(given, 100))
                  + "\" has letters outside plain ASCII; write an international domain in its"
                  + " ASCII form (xn--…)",
              pointer + "/" + i,
              null);
        InternetAddress a = new InternetAddress(given, true);
        a.validate();
        if (a.getPersonal() != null
            || !given.equals(a.getAddress())
            || a.isGroup()
            || given.indexOf('@') != given.lastIndexOf('@')) {
          throw new AddressException("not a plain address");
        }
        out.add(a);
      } catch (AddressException e) {
        throw new ToolFailure(
            ToolErrorCodes.VALIDATION_ERROR,
            "\"" + MimeReader.clean(given, 100)
                + "\" is not a plain e-mail address (name@example.org)",
            pointer + "/" + i,
            null);
      }
    }
    return out;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    ArrayNode cc = args.has("cc") ? (ArrayNode) args.path("cc") : Json.mapper().createArrayNode();
    // Where it went first, whole: the row's text is cut, and a long list could push the domain
    // that matters out of it.
    java.util.Set<String> domains = new java.util.TreeSet<>();
    for (JsonNode a : args.path("to")) domains.add(domain(a.asText()));
    for (JsonNode a : cc) domains.add(domain(a.asText()));
    StringBuilder b = new StringBuilder("to " + Counted.of(domains.size(), "domain", "domains")
        + " (" + String.join(", ", domains) + "): sent to ");
    List<String> to = new ArrayList<>();
    args.path("to").forEach(n -> to.add(n.asText()));
    b.append(String.join(", ", to));
    if (!cc.isEmpty()) {
      List<String> c = new ArrayList<>();
      cc.forEach(n -> c.add(n.asText()));
      b.append("; cc ").append(String.join(", ", c));
    }
    return b.toString();
  }

  private static String domain(String address) {
    return address.substring(address.lastIndexOf('@') + 1).toLowerCase(java.util.Locale.ROOT);
  }
}
