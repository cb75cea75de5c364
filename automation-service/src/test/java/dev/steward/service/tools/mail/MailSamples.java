package dev.steward.service.tools.mail;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Forwarded mail in the shapes real mail programs write it, as raw messages (CRLF line ends): what
 * the ingestion tests deliver to GreenMail and the parsing tests read.
 */
public final class MailSamples {

  private MailSamples() {}

  /** Each sample by a short name; the value is the raw message. */
  public static Map<String, byte[]> all() {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put("plain", utf8("""
        From: Anna Berg <anna@example.org>
        To: assistant@example.test
        Subject: Fwd: Dentist appointment moved
        Date: Mon, 02 Mar 2026 09:15:00 +0100
        Message-ID: <plain-1@example.org>
        MIME-Version: 1.0
        Content-Type: text/plain; charset=us-ascii

        FYI

        ---------- Forwarded message ---------
        From: Smile Dental <desk@smiledental.example>
        Date: Sun, 1 Mar 2026 at 18:02
        Subject: Dentist appointment moved
        To: Anna Berg <anna@example.org>

        Your appointment has moved to Thursday 5 March at 14:30. Please bring your insurance card.
        Reply to this mail if the new time does not suit you.

        --\s
        Smile Dental, Main Street 4
        """));
    m.put("alternative", utf8("""
        From: school@lincoln.example
        To: assistant@example.test
        Subject: Newsletter: spring concert
        Date: Tue, 03 Mar 2026 07:00:00 +0000
        Message-ID: <alt-1@lincoln.example>
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="b1"

        --b1
        Content-Type: text/plain; charset=utf-8

        The spring concert is on 20 March in the great hall.
        --b1
        Content-Type: text/html; charset=utf-8

        <html><body><p>The <b>spring concert</b> is on 20 March in the great hall (HTML).</p></body></html>
        --b1--
        """));
    m.put("html-only", utf8("""
        From: Shop <orders@shop.example>
        To: assistant@example.test
        Subject: Your order has shipped
        Date: Wed, 04 Mar 2026 12:00:00 +0000
        Message-ID: <html-1@shop.example>
        MIME-Version: 1.0
        Content-Type: multipart/alternative; boundary="b2"

        --b2
        Content-Type: text/html; charset=utf-8
        Content-Transfer-Encoding: base64

        PGh0bWw+PGhlYWQ+PHN0eWxlPnAge2NvbG9yOnJlZH08L3N0eWxlPjwvaGVhZD48Ym9keT48cD5Zb3VyIHBhcmNlbCBpcyBvbiBpdHMgd2F5LjwvcD48cD5UcmFja2luZzogPGEgaHJlZj0iaHR0cHM6Ly90cmFjay5leGFtcGxlL3giPlgxMjM8L2E+PC9wPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L2JvZHk+PC9odG1sPg==
        --b2--
        """));
    m.put("qp-base64", utf8("""
        From: =?UTF-8?B?SsO8cmdlbiBNw7xsbGVy?= <juergen@example.de>
        To: assistant@example.test
        Subject: =?UTF-8?B?RsO8aHJ1bmcgZHVyY2ggZGllIMOWbG3DvGhsZQ==?=
        Date: Thu, 05 Mar 2026 10:00:00 +0100
        Message-ID: <qp-1@example.de>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b3"

        --b3
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: quoted-printable

        Die F=C3=BChrung beginnt um 10 Uhr am Caf=C3=A9 vor der =C3=96lm=C3=BChle. =
        Bitte p=C3=BCnktlich sein.
        --b3
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: base64

        WndlaXRlciBUZWlsOiBUaWNrZXRzIGtvc3RlbiAxMiDigqwu
        --b3--
        """));
    m.put("latin1-subject", latin1("""
        From: "Ren\u00e9e" <renee@example.fr>
        To: assistant@example.test
        Subject: =?ISO-8859-1?Q?R=E9union_des_parents_=E0_l'=E9cole?=
        Date: Fri, 06 Mar 2026 16:45:00 +0100
        Message-ID: <latin-1@example.fr>
        MIME-Version: 1.0
        Content-Type: text/plain; charset=iso-8859-1
        Content-Transfer-Encoding: 8bit

        La r\u00e9union aura lieu mardi \u00e0 18 h dans la salle B.
        """));
    m.put("unknown-charset", utf8("""
        From: legacy@old.example
        To: assistant@example.test
        Subject: Heating invoice
        Date: Sat, 07 Mar 2026 08:00:00 +0000
        Message-ID: <unknown-1@old.example>
        MIME-Version: 1.0
        Content-Type: text/plain; charset="x-unknown-8bit"
        Content-Transfer-Encoding: 8bit

        The heating invoice for February is 84 \u20ac, due on 31 March.
        """));
    m.put("attachment", utf8("""
        From: Clinic <billing@clinic.example>
        To: assistant@example.test
        Subject: Invoice March
        Date: Sun, 08 Mar 2026 11:00:00 +0000
        Message-ID: <att-1@clinic.example>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b4"

        --b4
        Content-Type: text/plain; charset=utf-8

        Please find the invoice attached.
        --b4
        Content-Type: application/pdf; name="invoice.pdf"
        Content-Disposition: attachment; filename="../../../etc/invoice.pdf"
        Content-Transfer-Encoding: base64

        JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCnRyYWlsZXIKPDwvUm9vdCAxIDAgUj4+CiUlRU9G
        --b4
        Content-Type: text/csv; charset=utf-8
        Content-Disposition: attachment; filename*=UTF-8''Kosten%C3%BCbersicht.csv

        item,amount
        check-up,80
        --b4--
        """));
    m.put("forwarded-rfc822", utf8("""
        From: Anna Berg <anna@example.org>
        To: assistant@example.test
        Subject: Fwd: Field trip on Friday
        Date: Mon, 09 Mar 2026 20:00:00 +0100
        Message-ID: <fwd-1@example.org>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="b5"

        --b5
        Content-Type: text/plain; charset=utf-8

        See the school's note below.
        --b5
        Content-Type: message/rfc822
        Content-Disposition: attachment

        From: Lincoln School <office@lincoln.example>
        To: Anna Berg <anna@example.org>
        Subject: Field trip on Friday
        Date: Mon, 09 Mar 2026 14:00:00 +0100
        Message-ID: <inner-1@lincoln.example>
        MIME-Version: 1.0
        Content-Type: text/plain; charset=utf-8

        The class goes to the science museum on Friday. Children need a packed lunch and 5 euros.
        --b5--
        """));
    m.put("no-date-no-from", utf8("""
        To: assistant@example.test
        Subject: Note without sender
        MIME-Version: 1.0
        Content-Type: text/plain

        Remember the parcel at the neighbours.
        """));
    return m;
  }

  /** A message of {@code n} with a subject and body to search for (the benchmark's mail). */
  public static byte[] numbered(int n, String word) {
    return utf8("From: sender" + (n % 50) + "@example.org\n"
        + "To: assistant@example.test\n"
        + "Subject: Report " + n + " about " + word + "\n"
        + "Date: Mon, 02 Mar 2026 09:15:00 +0100\n"
        + "Message-ID: <n" + n + "@example.org>\n"
        + "MIME-Version: 1.0\n"
        + "Content-Type: text/plain; charset=utf-8\n\n"
        + "This is message number " + n + ". It talks about " + word
        + " and many other things that fill a summary of some length, as real mail does.\n");
  }

  /** A message whose To: names {@code n} recipients, each with a long display name. */
  public static byte[] manyRecipients(int n) {
    StringBuilder to = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) to.append(",\n ");
      to.append('"').append("Recipient ").append(i).append(' ').append("x".repeat(1500));
      to.append("\" <r").append(i).append("@example.org>");
    }
    return utf8("From: Bulk <bulk@example.org>\n"
        + "To: " + to + "\n"
        + "Subject: Many recipients\n"
        + "Date: Mon, 02 Mar 2026 09:15:00 +0100\n"
        + "Message-ID: <many-1@example.org>\n"
        + "MIME-Version: 1.0\n"
        + "Content-Type: text/plain; charset=utf-8\n\n"
        + "Sent to very many people.\n");
  }

  /** A message of about {@code mb} megabytes of plain text. */
  public static byte[] large(int mb) {
    String head = "From: Big <big@example.org>\r\n"
        + "To: assistant@example.test\r\n"
        + "Subject: A very large mail\r\n"
        + "Date: Mon, 02 Mar 2026 09:15:00 +0100\r\n"
        + "Message-ID: <large-1@example.org>\r\n"
        + "MIME-Version: 1.0\r\n"
        + "Content-Type: text/plain; charset=us-ascii\r\n\r\n";
    byte[] line = ("y".repeat(76) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] h = head.getBytes(StandardCharsets.US_ASCII);
    int lines = (mb << 20) / line.length;
    byte[] out = new byte[h.length + lines * line.length];
    System.arraycopy(h, 0, out, 0, h.length);
    for (int i = 0; i < lines; i++) {
      System.arraycopy(line, 0, out, h.length + i * line.length, line.length);
    }
    return out;
  }

  /** A message forwarded {@code depth} times, each forward attaching the one before. */
  public static byte[] nestedForwards(int depth) {
    String inner = "From: origin@example.org\n"
        + "Subject: The original\n"
        + "Message-ID: <nested-0@example.org>\n"
        + "Content-Type: text/plain; charset=utf-8\n\n"
        + "The innermost words.\n";
    for (int i = 1; i <= depth; i++) {
      inner = "From: forwarder" + i + "@example.org\n"
          + "Subject: Fwd " + i + "\n"
          + "Message-ID: <nested-" + i + "@example.org>\n"
          + "MIME-Version: 1.0\n"
          + "Content-Type: multipart/mixed; boundary=\"n" + i + "\"\n\n"
          + "--n" + i + "\n"
          + "Content-Type: text/plain; charset=utf-8\n\n"
          + "Forward number " + i + ".\n"
          + "--n" + i + "\n"
          + "Content-Type: message/rfc822\n\n"
          + inner
          + "--n" + i + "--\n";
    }
    return utf8("To: assistant@example.test\n" + inner);
  }

  static byte[] utf8(String text) {
    return text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] latin1(String text) {
    return text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
  }
}
