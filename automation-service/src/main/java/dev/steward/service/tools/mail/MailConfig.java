package dev.steward.service.tools.mail;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackSecrets;
import java.util.Optional;

/**
 * The mailbox as configured now: the address and servers from the policy ({@code mail}), the user
 * name and password from {@code config/secrets.json} (section {@code mail}; the user name is the
 * address when none is set). {@link #toString} never shows the password.
 */
record MailConfig(
    String address,
    PolicyDocument.Mail.Server imap,
    PolicyDocument.Mail.Server smtp,
    String username,
    String password) {

  static final String SECTION = "mail";

  /** The configuration, or what is missing from it (said so that the user can set it up). */
  static Configured read(PolicyDocument policy, PackSecrets secrets) {
    PolicyDocument.Mail mail = policy.mail();
    String address = mail.address();
    PolicyDocument.Mail.Server imap = mail.imap();
    PolicyDocument.Mail.Server smtp = mail.smtp();
    if (address == null || imap == null || smtp == null) {
      return new Configured(
          null,
          "the mailbox is not set up: in Settings → Mail, give its address and its IMAP and SMTP"
              + " servers");
    }
    Optional<String> password = secrets.get(SECTION, "password");
    if (password.isEmpty() || password.get().isEmpty()) {
      return new Configured(
          null, "the mailbox has no password: set it in Settings → Mail (secrets mail.password)");
    }
    String user = secrets.get(SECTION, "username").filter(u -> !u.isBlank()).orElse(address);
    return new Configured(new MailConfig(address, imap, smtp, user, password.get()), null);
  }

  /** Either a configuration or why there is none. */
  record Configured(
      @org.jspecify.annotations.Nullable MailConfig config,
      @org.jspecify.annotations.Nullable String missing) {

    Optional<MailConfig> get() {
      return Optional.ofNullable(config);
    }

    Optional<String> unavailable() {
      return Optional.ofNullable(missing);
    }
  }

  /** What identifies a mailbox to read: a change of any of it starts a new connection. */
  String imapKey() {
    return imap.host() + ":" + imap.port() + ":" + imap.tls() + ":" + username + ":"
        + Integer.toHexString(password.hashCode());
  }

  @Override
  public String toString() {
    return "MailConfig[" + address + ", imap " + imap + ", smtp " + smtp + ", user " + username
        + "]";
  }
}
