package dev.steward.service.tools.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.Store;
import jakarta.mail.Transport;

/**
 * The window's "Test connection": signs in over IMAP and over SMTP with the settings in force and
 * says, for each, "ok" or exactly what failed.
 */
final class ConnectionCheck {

  /** The answer of {@code mail.check}. */
  record Result(String imap, String smtp) {}

  static final String OK = "ok";

  private ConnectionCheck() {}

  static Result run(MailConfig config) {
    return new Result(imap(config), smtp(config));
  }

  private static String imap(MailConfig config) {
    try (Store store = MailSessions.imap(config.imap(), MailSessions.TIMEOUT).getStore()) {
      store.connect(
          config.imap().host(), config.imap().port(), config.username(), config.password());
      store.getFolder("INBOX").exists();
      return OK;
    } catch (MessagingException | RuntimeException e) {
      return ConnectionProblems.describe(e, config.imap(), config.password());
    }
  }

  private static String smtp(MailConfig config) {
    try (Transport transport =
        MailSessions.smtp(config.smtp(), config.address()).getTransport()) {
      transport.connect(
          config.smtp().host(), config.smtp().port(), config.username(), config.password());
      return OK;
    } catch (MessagingException | RuntimeException e) {
      return ConnectionProblems.describe(e, config.smtp(), config.password());
    }
  }
}
