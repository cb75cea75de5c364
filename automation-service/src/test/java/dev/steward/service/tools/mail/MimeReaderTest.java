package dev.steward.service.tools.mail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Real-world MIME as the ingestion reads it: every sample shape, without a server. */
class MimeReaderTest {

  private static final Map<String, byte[]> SAMPLES = MailSamples.all();

  private static ParsedMail parse(String name) throws Exception {
    return MimeReader.parse(SAMPLES.get(name));
  }

  @Test
  void a_plain_forward_keeps_its_text_and_the_summary_skips_the_forwarding_header_and_signature()
      throws Exception {
    ParsedMail m = parse("plain");
    assertEquals("Anna Berg <anna@example.org>", m.from());
    assertEquals("Fwd: Dentist appointment moved", m.subject());
    assertEquals(Instant.parse("2026-03-02T08:15:00Z"), m.date());
    assertEquals("<plain-1@example.org>", m.messageId());
    assertTrue(m.text().contains("Your appointment has moved to Thursday"), m.text());
    String summary = Summaries.extract(m.text(), m.subject());
    assertTrue(
        summary.startsWith("Your appointment has moved to Thursday 5 March at 14:30."), summary);
    assertFalse(summary.contains("Smile Dental, Main Street"), summary);
    assertFalse(summary.contains("From:"), summary);
    assertTrue(summary.length() <= Summaries.TARGET + 1, summary);
  }

  @Test
  void an_alternative_is_read_from_its_plain_part() throws Exception {
    ParsedMail m = parse("alternative");
    assertEquals("The spring concert is on 20 March in the great hall.", m.text());
    assertTrue(m.attachments().isEmpty());
  }

  @Test
  void html_only_mail_becomes_text_without_styles_or_scripts() throws Exception {
    ParsedMail m = parse("html-only");
    assertEquals("Your parcel is on its way.\nTracking: X123", m.text());
  }

  @Test
  void quoted_printable_base64_and_encoded_word_headers_are_decoded() throws Exception {
    ParsedMail m = parse("qp-base64");
    assertEquals("Führung durch die Ölmühle", m.subject());
    assertEquals("Jürgen Müller <juergen@example.de>", m.from());
    assertTrue(
        m.text()
            .contains(
                "Die Führung beginnt um 10 Uhr am Café vor der Ölmühle. Bitte pünktlich sein."),
        m.text());
    assertTrue(m.text().contains("Zweiter Teil: Tickets kosten 12 €."), m.text());
  }

  @Test
  void an_iso_8859_1_subject_and_body_are_decoded() throws Exception {
    ParsedMail m = parse("latin1-subject");
    assertEquals("Réunion des parents à l'école", m.subject());
    assertEquals("Renée <renee@example.fr>", m.from());
    assertEquals("La réunion aura lieu mardi à 18 h dans la salle B.", m.text());
  }

  @Test
  void an_unknown_charset_is_guessed_never_fatal() throws Exception {
    ParsedMail m = parse("unknown-charset");
    assertEquals("The heating invoice for February is 84 €, due on 31 March.", m.text());
    assertEquals(
        "caf\u00e9",
        Charsets.decode("caf\u00e9".getBytes(StandardCharsets.ISO_8859_1), "x-nonsense"));
    assertEquals("caf\u00e9", Charsets.decode("caf\u00e9".getBytes(StandardCharsets.UTF_8), null));
    assertEquals(
        "caf\u00e9",
        Charsets.decode("caf\u00e9".getBytes(StandardCharsets.ISO_8859_1), "us-ascii"),
        "8-bit bytes that claim to be ASCII");
  }

  @Test
  void attachments_keep_their_names_types_and_bytes_and_names_are_made_safe() throws Exception {
    ParsedMail m = parse("attachment");
    assertEquals("Please find the invoice attached.", m.text());
    assertEquals(2, m.attachments().size());
    ParsedMail.Attachment pdf = m.attachments().get(0);
    assertEquals("application/pdf", pdf.type());
    assertTrue(new String(pdf.content(), StandardCharsets.ISO_8859_1).startsWith("%PDF-1.4"));
    assertEquals("invoice.pdf", FileNames.safe(pdf.name()));
    ParsedMail.Attachment csv = m.attachments().get(1);
    assertEquals("Kostenübersicht.csv", csv.name(), "RFC 2231 file name");
    assertEquals("text/csv", csv.type());
  }

  @Test
  void a_forwarded_message_is_read_inline_and_kept_as_an_attachment() throws Exception {
    ParsedMail m = parse("forwarded-rfc822");
    assertTrue(m.text().startsWith("See the school's note below."), m.text());
    assertTrue(m.text().contains("Subject: Field trip on Friday"), m.text());
    assertTrue(m.text().contains("science museum on Friday"), m.text());
    assertEquals(1, m.attachments().size());
    assertEquals("Field trip on Friday.eml", m.attachments().get(0).name());
    assertEquals("message/rfc822", m.attachments().get(0).type());
    String summary = Summaries.extract(m.text(), m.subject());
    assertTrue(summary.contains("See the school's note below."), summary);
    assertTrue(summary.contains("science museum"), summary);
  }

  @Test
  void a_missing_date_and_sender_are_empty_not_errors() throws Exception {
    ParsedMail m = parse("no-date-no-from");
    assertEquals("", m.from());
    assertNull(m.date());
    assertNull(m.messageId());
    assertEquals("Remember the parcel at the neighbours.", m.text());
  }

  @Test
  void file_names_never_leave_their_folder() {
    assertEquals("passwd", FileNames.safe("../../etc/passwd"));
    assertEquals("evil.txt", FileNames.safe("..\\..\\evil.txt"));
    assertEquals("hidden", FileNames.safe(".hidden"));
    assertEquals("attachment", FileNames.safe(".."));
    assertEquals("attachment-CON.txt", FileNames.safe("CON.txt"));
    assertEquals("a_b.txt", FileNames.safe("a\u0000b.txt"));
    assertTrue(FileNames.safe("x".repeat(300) + ".pdf").endsWith(".pdf"));
    assertTrue(FileNames.safe("x".repeat(300) + ".pdf").length() <= 100);
  }

  @Test
  void a_summary_skips_quotes_and_reply_intros_and_is_cut_at_a_sentence() {
    String text = "Hi Anna,\n\nThe meeting is at noon. Bring the plans. "
        + "x".repeat(10) + " " + "word ".repeat(60)
        + "\n\nOn Mon, 2 Mar 2026, Bob wrote:\n> old text\n";
    String s = Summaries.extract(text, "subject");
    assertTrue(s.startsWith("The meeting is at noon."), s);
    assertFalse(s.contains("old text"));
    assertTrue(s.length() <= Summaries.TARGET + 1, s.length() + ": " + s);
    assertEquals("subject", Summaries.extract("> only quoted\n", "subject"));
  }

  @Test
  void a_to_header_of_300_long_display_names_is_cut_to_fit_its_column() throws Exception {
    ParsedMail m = MimeReader.parse(MailSamples.manyRecipients(300));
    assertFalse(m.to().isEmpty());
    assertTrue(m.to().size() <= MimeReader.MAX_TO, "at most 100: " + m.to().size());
    assertTrue(
        dev.steward.protocol.json.Json.write(m.to()).length() < 20_000,
        "the recipients as kept fit the to_addrs column");
    assertEquals("Sent to very many people.", m.text());
  }

  @Test
  void nested_forwards_keep_only_the_outermost_as_an_attachment_and_read_every_text()
      throws Exception {
    ParsedMail m = MimeReader.parse(MailSamples.nestedForwards(6));
    assertEquals(
        1,
        m.attachments().stream().filter(a -> a.type().equals("message/rfc822")).count(),
        m.attachments().toString());
    assertEquals("Fwd 5.eml", m.attachments().get(0).name());
    assertTrue(m.text().contains("The innermost words."), m.text());
  }

  @Test
  void bidi_controls_are_dropped_from_names_subjects_and_attachment_names() throws Exception {
    ParsedMail m = MimeReader.parse(MailSamples.utf8("""
        From: "Bank\u202E\u2066 support\u2069" <evil@example.org>
        To: assistant@example.test
        Subject: Invoice\u202Egpj.exe\u2028now
        Message-ID: <bidi-1@example.org>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b"

        --b
        Content-Type: text/plain; charset=utf-8

        See attached.
        --b
        Content-Type: application/octet-stream; name="photo\u202Egpj.exe"
        Content-Disposition: attachment; filename="photo\u202Egpj.exe"

        data
        --b--
        """));
    assertEquals("Bank support <evil@example.org>", m.from());
    assertEquals("Invoicegpj.exe now", m.subject());
    assertEquals("photogpj.exe", m.attachments().get(0).name());
    assertEquals("evil@example.org", MimeReader.address(m.from()));
    for (String s : new String[] {m.from(), m.subject(), m.attachments().get(0).name()}) {
      assertTrue(s.chars().noneMatch(c -> c == 0x202E || c == 0x2066 || c == 0x2069), s);
    }
  }

  @Test
  void a_huge_html_part_is_cut_before_it_is_parsed_and_the_text_is_bounded() throws Exception {
    // 7.5 MB of HTML, 3 million characters of text were it read whole; 2 MB of it give 840,000.
    String html = "<div>" + "<p>w ".repeat(1_500_000) + "</div>";
    ParsedMail m = MimeReader.parse(MailSamples.utf8("""
        From: big@example.org
        To: assistant@example.test
        Subject: Huge HTML
        MIME-Version: 1.0
        Content-Type: text/html; charset=utf-8

        """ + html + "\n"));
    assertTrue(m.text().startsWith("w\nw\n"), m.text().substring(0, 20));
    assertTrue(m.text().length() < 900_000, "cut at 2 MB of HTML: " + m.text().length());
  }
}
