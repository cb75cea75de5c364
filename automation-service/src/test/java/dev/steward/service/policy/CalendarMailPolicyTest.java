package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import org.junit.jupiter.api.Test;

/**
 * SPEC §13's {@code calendar} and {@code mail} blocks: read as the SPEC writes them, an address
 * with a user name in it refused, and the optional {@code notify_new_mail} off when left out.
 */
class CalendarMailPolicyTest {

  @Test
  void the_specs_blocks_are_read_as_written() throws Exception {
    PolicyDocument doc = Json.strictMapper().readValue("""
        {"calendar": {"url": "https://caldav.example.org/user/assistant-shared"},
         "mail": {"address": "assistant@example.org",
                  "imap": {"host": "imap.example.org", "port": 993, "tls": true},
                  "smtp": {"host": "smtp.example.org", "port": 465, "tls": true}}}
        """, PolicyDocument.class);
    assertEquals(
        "https://caldav.example.org/user/assistant-shared/", doc.calendar().url());
    assertEquals(
        new PolicyDocument.Mail.Server("imap.example.org", 993, true),
        doc.mail().imap());
    assertFalse(doc.mail().notifyNewMail(), "off when left out");
  }

  @Test
  void a_user_name_in_an_address_or_a_bad_port_is_refused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PolicyDocument.Calendar("https://me:pw@caldav.example.org/cal/"));
    assertThrows(IllegalArgumentException.class, () -> new PolicyDocument.Calendar("ftp://x/"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PolicyDocument.Calendar("http://caldav.example.org/cal/"),
        "a password never crosses the network in clear text");
    assertEquals(
        "http://127.0.0.1:5232/me/cal/",
        new PolicyDocument.Calendar("http://127.0.0.1:5232/me/cal").url());
    assertThrows(
        IllegalArgumentException.class,
        () -> new PolicyDocument.Mail.Server("imap.example.org", 0, true));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PolicyDocument.Mail("no-at-sign", null, null, false));
  }
}
