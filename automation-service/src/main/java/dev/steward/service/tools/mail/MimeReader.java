package dev.steward.service.tools.mail;

import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimePart;
import jakarta.mail.internet.MimeUtility;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads a message as real-world mail comes: the text of a multipart/alternative from its plain
 * part (else its HTML, made text), nested multiparts walked, forwarded messages (message/rfc822)
 * read inline under a forwarding header and kept as attachments too, encoded-word headers decoded,
 * and any charset that cannot be honoured guessed instead. Only a message whose headers cannot be
 * read at all fails.
 */
final class MimeReader {

  static final int MAX_DEPTH = 20;
  static final int MAX_PARTS = 1000;
  private static final int MAX_HEADER = 2000;

  private final List<String> texts = new ArrayList<>();
  private final List<ParsedMail.Attachment> attachments = new ArrayList<>();
  private int parts;

  private MimeReader() {}

  static ParsedMail parse(byte[] raw) throws MessagingException {
    MimeMessage m = new MimeMessage(MailSessions.parsing(), new ByteArrayInputStream(raw));
    MimeReader r = new MimeReader();
    r.part(m, 0);
    return new ParsedMail(
        from(m),
        addresses(m, "To"),
        subject(m),
        date(m),
        messageId(m),
        String.join("\n\n", r.texts).strip(),
        r.attachments);
  }

  private void part(Part p, int depth) {
    if (depth > MAX_DEPTH || ++parts > MAX_PARTS) return;
    String type = type(p);
    try {
      if (type.startsWith("multipart/")) {
        Object content = p.getContent();
        if (content instanceof Multipart mp) {
          if (type.equals("multipart/alternative")) {
            Part best = preferred(mp);
            if (best != null) part(best, depth + 1);
          } else {
            for (int i = 0; i < mp.getCount(); i++) part(mp.getBodyPart(i), depth + 1);
          }
          return;
        }
      } else if (type.equals("message/rfc822")) {
        Object content = p.getContent();
        if (content instanceof MimeMessage inner) {
          texts.add(forwardHeader(inner));
          part(inner, depth + 1);
          String subject = subject(inner);
          attachments.add(new ParsedMail.Attachment(
              (subject.isBlank() ? "forwarded message" : subject) + ".eml", type, body(p)));
          return;
        }
      } else if ((type.equals("text/plain") || type.equals("text/html")) && !attached(p)) {
        String text = Charsets.decode(body(p), charset(p));
        texts.add(type.equals("text/html") ? HtmlText.of(text) : text.replace("\r\n", "\n"));
        return;
      }
    } catch (MessagingException | IOException | RuntimeException e) {
      // A part that cannot be read as what it says it is is kept as it came, as an attachment.
    }
    if (p instanceof Message) return;
    attachments.add(new ParsedMail.Attachment(fileName(p, type), type, body(p)));
  }

  /** The part of an alternative to read: plain text, else a multipart (HTML with images), else HTML. */
  private static @Nullable Part preferred(Multipart mp) throws MessagingException {
    Part plain = null;
    Part multi = null;
    Part html = null;
    for (int i = 0; i < mp.getCount(); i++) {
      BodyPart b = mp.getBodyPart(i);
      String t = type(b);
      if (t.equals("text/plain")
          && plain == null
          && !Charsets.decode(body(b), charset(b)).isBlank()) plain = b;
      else if (t.startsWith("multipart/")) multi = b;
      else if (t.equals("text/html")) html = b;
    }
    if (plain != null) return plain;
    if (multi != null) return multi;
    if (html != null) return html;
    return mp.getCount() > 0 ? mp.getBodyPart(0) : null;
  }

  private static boolean attached(Part p) throws MessagingException {
    String disposition = p.getDisposition();
    if (disposition != null && disposition.equalsIgnoreCase(Part.ATTACHMENT)) return true;
    try {
      return p.getFileName() != null;
    } catch (MessagingException e) {
      return true;
    }
  }

  private static String type(Part p) {
    try {
      String ct = p.getContentType();
      if (ct == null) return "text/plain";
      return new ContentType(ct).getBaseType().toLowerCase(Locale.ROOT);
    } catch (MessagingException | RuntimeException e) {
      return "application/octet-stream";
    }
  }

  private static @Nullable String charset(Part p) {
    try {
      String ct = p.getContentType();
      return ct == null ? null : new ContentType(ct).getParameter("charset");
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  /** The part's bytes, transfer encoding undone; as they came when that fails; empty when nothing can be read. */
  static byte[] body(Part p) {
    try (InputStream in = p.getInputStream()) {
      return in.readAllBytes();
    } catch (IOException | MessagingException | RuntimeException e) {
      if (p instanceof MimePart mp) {
        try (InputStream in = rawStream(mp)) {
          return in.readAllBytes();
        } catch (IOException | MessagingException | RuntimeException e2) {
          return new byte[0];
        }
      }
      return new byte[0];
    }
  }

  private static InputStream rawStream(MimePart p) throws MessagingException {
    if (p instanceof MimeMessage m) return m.getRawInputStream();
    return ((jakarta.mail.internet.MimeBodyPart) p).getRawInputStream();
  }

  private static String fileName(Part p, String type) {
    try {
      String name = p.getFileName();
      if (name != null && !name.isBlank()) return clean(decodeHeader(eightBit(name)), 255);
    } catch (MessagingException | RuntimeException e) {
      // a broken name parameter: named by its type below
    }
    String sub = type.substring(type.indexOf('/') + 1);
    return "attachment." + (sub.matches("[a-z0-9.+-]{1,20}") ? sub : "bin");
  }

  private static String forwardHeader(MimeMessage m) {
    StringBuilder b = new StringBuilder("---------- Forwarded message ----------\n");
    b.append("From: ").append(from(m)).append('\n');
    Instant date = date(m);
    if (date != null) b.append("Date: ").append(date).append('\n');
    b.append("Subject: ").append(subject(m)).append('\n');
    List<String> to = addresses(m, "To");
    if (!to.isEmpty()) b.append("To: ").append(String.join(", ", to)).append('\n');
    return b.toString();
  }

  static String subject(MimeMessage m) {
    return raw(m, "Subject");
  }

  static String from(MimeMessage m) {
    List<String> from = addresses(m, "From");
    if (from.isEmpty()) from = addresses(m, "Sender");
    return from.isEmpty() ? "" : from.get(0);
  }

  private static List<String> addresses(MimeMessage m, String header) {
    String value = header(m, header);
    if (value == null || value.isBlank()) return List.of();
    try {
      List<String> out = new ArrayList<>();
      for (InternetAddress a : InternetAddress.parseHeader(value, false)) {
        if (out.size() < 100) out.add(shown(a));
      }
      return out;
    } catch (AddressException | RuntimeException e) {
      return List.of(clean(decodeHeader(value), MAX_HEADER));
    }
  }

  private static String shown(InternetAddress a) {
    String personal = a.getPersonal();
    String address = a.getAddress() == null ? "" : a.getAddress();
    return clean(
        personal == null || personal.isBlank() ? address : personal + " <" + address + ">",
        MAX_HEADER);
  }

  static @Nullable Instant date(MimeMessage m) {
    try {
      Date d = m.getSentDate();
      return d == null ? null : d.toInstant();
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  private static @Nullable String messageId(MimeMessage m) {
    try {
      String id = m.getMessageID();
      if (id == null || id.isBlank()) return null;
      return clean(id, 998);
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  private static String raw(MimeMessage m, String name) {
    String v = header(m, name);
    return v == null ? "" : clean(decodeHeader(v), MAX_HEADER);
  }

  /** A header as it came, unfolded, its 8-bit bytes read as UTF-8 or else Windows-1252. */
  private static @Nullable String header(MimeMessage m, String name) {
    try {
      String v = m.getHeader(name, ", ");
      return v == null ? null : eightBit(MimeUtility.unfold(v));
    } catch (MessagingException | RuntimeException e) {
      return null;
    }
  }

  /** Text whose chars are bytes (Latin-1 as read), decoded as the bytes' likeliest charset. */
  static String eightBit(String s) {
    boolean high = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c > 0xFF) return s;
      if (c >= 0x80) high = true;
    }
    return high
        ? Charsets.decode(s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), null)
        : s;
  }

  private static String decodeHeader(String value) {
    try {
      return MimeUtility.decodeText(value);
    } catch (java.io.UnsupportedEncodingException | RuntimeException e) {
      return value;
    }
  }

  /** A header value on one line, without control characters, at most {@code max} characters. */
  static String clean(String s, int max) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), max));
    for (int i = 0; i < s.length() && b.length() < max; i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        if (b.length() > 0 && b.charAt(b.length() - 1) != ' ') b.append(' ');
      } else {
        b.append(c);
      }
    }
    return b.toString().strip();
  }
}
