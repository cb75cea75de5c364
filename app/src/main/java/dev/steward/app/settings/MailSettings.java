package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Settings, "Mail": the dedicated mailbox the assistant reads (mail you forward to it) and sends
 * from — its address, its IMAP and SMTP servers, the account's user name and password (through
 * {@code secrets.set} only, never shown again) — whether new mail shows a notification, and a test
 * of both connections that says exactly what failed.
 */
public final class MailSettings {

  /** The pack's check, answering {@code {imap, smtp}}: "ok" or what failed, for each. */
  static final String CHECK = "mail.check";

  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final ConnectionCheck check;
  private final StringProperty address = new SimpleStringProperty("");
  private final StringProperty imapHost = new SimpleStringProperty("");
  private final StringProperty imapPort = new SimpleStringProperty("993");
  private final BooleanProperty imapTls = new SimpleBooleanProperty(true);
  private final StringProperty smtpHost = new SimpleStringProperty("");
  private final StringProperty smtpPort = new SimpleStringProperty("465");
  private final BooleanProperty smtpTls = new SimpleBooleanProperty(true);
  private final BooleanProperty notifyNewMail = new SimpleBooleanProperty(false);
  private final StringProperty username = new SimpleStringProperty("");
  private final StringProperty password = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  MailSettings(PolicyEditor policy, SecretsWriter secrets, Executor background, Executor ui) {
    this.policy = policy;
    this.secrets = secrets;
    this.check = new ConnectionCheck(background, ui, CHECK);
    policy.onShow(doc -> {
      PolicyDocument.Mail m = doc.mail();
      address.set(m.address() == null ? "" : m.address());
      if (m.imap() != null) {
        imapHost.set(m.imap().host());
        imapPort.set(Integer.toString(m.imap().port()));
        imapTls.set(m.imap().tls());
      }
      if (m.smtp() != null) {
        smtpHost.set(m.smtp().host());
        smtpPort.set(Integer.toString(m.smtp().port()));
        smtpTls.set(m.smtp().tls());
      }
      notifyNewMail.set(Boolean.TRUE.equals(m.notifyNewMail()));
    });
  }

  void attach(PackCalls calls) {
    check.attach(calls);
  }

  public void save() {
    PolicyDocument.Mail next;
    try {
      next =
          address.get().isBlank() && imapHost.get().isBlank() && smtpHost.get().isBlank()
              ? new PolicyDocument.Mail(null, null, null, notifyNewMail.get())
              : new PolicyDocument.Mail(
                  address.get().strip(),
                  server(imapHost.get(), imapPort.get(), imapTls.get(), "IMAP"),
                  server(smtpHost.get(), smtpPort.get(), smtpTls.get(), "SMTP"),
                  notifyNewMail.get());
    } catch (IllegalArgumentException e) {
      error.set(String.valueOf(e.getMessage()));
      return;
    }
    secrets.saveWithAccount(
        policy, doc -> doc.withMail(next), "mail", username, password, status, error);
  }

  private static PolicyDocument.Mail.Server server(
      String host, String port, boolean tls, String which) {
    if (host.isBlank()) throw new IllegalArgumentException("Type the " + which + " server's host");
    int p;
    try {
      p = Integer.parseInt(port.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "The " + which + " port is a number, such as " + (which.equals("IMAP") ? "993" : "465"));
    }
    return new PolicyDocument.Mail.Server(host.strip(), p, tls);
  }

  /** Signs in over IMAP and SMTP with what is saved. */
  public void test() {
    check.run(status, error, MailSettings::say);
  }

  static ConnectionCheck.Outcome say(JsonNode answer) {
    String imap = answer.path("imap").asText("");
    String smtp = answer.path("smtp").asText("");
    if (imap.equals("ok") && smtp.equals("ok")) {
      return new ConnectionCheck.Outcome(true, "Connected: reading (IMAP) and sending (SMTP) work");
    }
    if (!answer.has("imap") && answer.has("problem")) {
      return new ConnectionCheck.Outcome(false, answer.path("problem").asText());
    }
    StringBuilder why = new StringBuilder();
    if (!imap.equals("ok")) why.append("Reading (IMAP): ").append(imap);
    if (!smtp.equals("ok")) {
      if (why.length() > 0) why.append("; ");
      why.append("Sending (SMTP): ").append(smtp);
    }
    return new ConnectionCheck.Outcome(false, why.toString());
  }

  public StringProperty addressProperty() {
    return address;
  }

  public StringProperty imapHostProperty() {
    return imapHost;
  }

  public StringProperty imapPortProperty() {
    return imapPort;
  }

  public BooleanProperty imapTlsProperty() {
    return imapTls;
  }

  public StringProperty smtpHostProperty() {
    return smtpHost;
  }

  public StringProperty smtpPortProperty() {
    return smtpPort;
  }

  public BooleanProperty smtpTlsProperty() {
    return smtpTls;
  }

  public BooleanProperty notifyNewMailProperty() {
    return notifyNewMail;
  }

  public StringProperty usernameProperty() {
    return username;
  }

  public StringProperty passwordProperty() {
    return password;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }

  public ReadOnlyBooleanProperty testingProperty() {
    return check.runningProperty();
  }
}
