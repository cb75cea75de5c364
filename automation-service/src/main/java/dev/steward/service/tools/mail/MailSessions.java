package dev.steward.service.tools.mail;

import dev.steward.protocol.policy.PolicyDocument;
import jakarta.mail.Session;
import java.util.Properties;

/**
 * Jakarta Mail sessions as the pack uses them: lenient MIME parsing (real-world mail breaks the
 * rules), timeouts on every connection, TLS from the first byte when the server is configured with
 * {@code tls}, and otherwise STARTTLS required unless the server is on this machine, so a password
 * never crosses a network in the clear.
 */
final class MailSessions {

  static final java.time.Duration TIMEOUT = java.time.Duration.ofSeconds(20);
  private static final String TIMEOUT_MS = Long.toString(TIMEOUT.toMillis());

  static {
    // Jakarta Mail reads these from system properties only, once, when its classes load: without
    // them an encoded word glued to other text, or a parameter with a stray character, is an
    // error instead of a best-effort decoding.
    lenient("mail.mime.decodetext.strict", "false");
    lenient("mail.mime.parameters.strict", "false");
    lenient("mail.mime.base64.ignoreerrors", "true");
    lenient("mail.mime.uudecode.ignoreerrors", "true");
    lenient("mail.mime.uudecode.ignoremissingbeginend", "true");
    lenient("mail.mime.ignoreunknownencoding", "true");
    lenient("mail.mime.decodefilename", "true");
    lenient("mail.mime.decodeparameters", "true");
  }

  private MailSessions() {}

  /** Sets the lenient parsing up (this class's initialiser) before any Jakarta Mail class loads. */
  static void prepare() {
    // the static initialiser has run by now
  }

  private static void lenient(String key, String value) {
    if (System.getProperty(key) == null) System.setProperty(key, value);
  }

  /** A session only for parsing messages already here. */
  static Session parsing() {
    Properties p = base();
    // Header bytes stay bytes (one char each): MimeReader decodes raw 8-bit headers itself, as
    // UTF-8 when they are, else as Windows-1252, where this setting would turn Latin-1 into U+FFFD.
    p.setProperty("mail.mime.allowutf8", "false");
    return Session.getInstance(p);
  }

  /** An IMAP session whose reads wait at most {@code readTimeout} (an IDLE waits long). */
  static Session imap(PolicyDocument.Mail.Server server, java.time.Duration readTimeout) {
    Properties p = base();
    String protocol = server.tls() ? "imaps" : "imap";
    p.setProperty("mail.store.protocol", protocol);
    connection(p, "mail." + protocol, server);
    p.setProperty("mail." + protocol + ".timeout", Long.toString(readTimeout.toMillis()));
    // The pack fetches whole messages; partial fetches only cost round trips.
    p.setProperty("mail." + protocol + ".partialfetch", "false");
    return Session.getInstance(p);
  }

  static Session smtp(PolicyDocument.Mail.Server server, String from) {
    Properties p = base();
    String protocol = server.tls() ? "smtps" : "smtp";
    p.setProperty("mail.transport.protocol", protocol);
    connection(p, "mail." + protocol, server);
    p.setProperty("mail." + protocol + ".auth", "true");
    // The Message-ID's domain and the EHLO name come from here, not from a lookup of this host.
    p.setProperty("mail.from", from);
    p.setProperty("mail." + protocol + ".localhost", domainOf(from));
    return Session.getInstance(p);
  }

  private static Properties base() {
    Properties p = new Properties();
    p.setProperty("mail.mime.address.strict", "false");
    p.setProperty("mail.mime.decodetext.strict", "false");
    p.setProperty("mail.mime.allowutf8", "true");
    return p;
  }

  private static void connection(Properties p, String prefix, PolicyDocument.Mail.Server server) {
    p.setProperty(prefix + ".host", server.host());
    p.setProperty(prefix + ".port", Integer.toString(server.port()));
    p.setProperty(prefix + ".connectiontimeout", TIMEOUT_MS);
    p.setProperty(prefix + ".timeout", TIMEOUT_MS);
    p.setProperty(prefix + ".writetimeout", TIMEOUT_MS);
    if (server.tls()) {
      p.setProperty(prefix + ".ssl.checkserveridentity", "true");
    } else if (!isLoopback(server.host())) {
      p.setProperty(prefix + ".starttls.enable", "true");
      p.setProperty(prefix + ".starttls.required", "true");
      p.setProperty(prefix + ".ssl.checkserveridentity", "true");
    }
  }

  /** Whether the host is this machine by its spelling alone (no lookup). */
  static boolean isLoopback(String host) {
    return dev.steward.protocol.util.Loopback.host(host);
  }

  private static String domainOf(String address) {
    int at = address.lastIndexOf('@');
    return at < 0 ? "localhost" : address.substring(at + 1);
  }
}
