package dev.steward.service.tools.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import jakarta.mail.Session;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A password never crosses a network in the clear: plain text only to this machine. */
class MailSessionsTest {

  @Test
  void a_server_without_tls_elsewhere_must_offer_starttls() {
    Session s = MailSessions.imap(
        new PolicyDocument.Mail.Server("imap.example.org", 143, false), Duration.ofSeconds(5));
    assertEquals("true", s.getProperty("mail.imap.starttls.required"));
    Session smtp = MailSessions.smtp(
        new PolicyDocument.Mail.Server("smtp.example.org", 587, false), "me@example.org");
    assertEquals("true", smtp.getProperty("mail.smtp.starttls.required"));
    assertEquals("example.org", smtp.getProperty("mail.smtp.localhost"));
  }

  @Test
  void tls_from_the_first_byte_checks_the_servers_name_and_loopback_may_be_plain() {
    Session s = MailSessions.imap(
        new PolicyDocument.Mail.Server("imap.example.org", 993, true), Duration.ofSeconds(5));
    assertEquals("imaps", s.getProperty("mail.store.protocol"));
    assertEquals("true", s.getProperty("mail.imaps.ssl.checkserveridentity"));
    Session local = MailSessions.imap(
        new PolicyDocument.Mail.Server("127.0.0.1", 3143, false), Duration.ofSeconds(5));
    assertNull(local.getProperty("mail.imap.starttls.required"));
    assertTrue(MailSessions.isLoopback("localhost"));
    assertTrue(MailSessions.isLoopback("::1"));
    assertFalse(MailSessions.isLoopback("127.0.0.1.evil.example"));
    assertFalse(MailSessions.isLoopback("mail.example.org"));
  }
}
