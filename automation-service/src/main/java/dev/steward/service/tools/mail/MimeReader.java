package dev.steward.service.tools.mail;

import dev.steward.protocol.util.ShownText;
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
import jakarta.mail.util.SharedByteArrayInputStream;
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
 *
 * <p>A stranger chooses every byte, so what is kept is bounded whatever the message: the text at
 * {@value #MAX_TEXT} characters, an HTML part cut at {@value #MAX_HTML} bytes before it is parsed,
 * the recipients at {@value #MAX_TO} addresses and {@value #MAX_TO_CHARS} characters, and only the
 * outermost forwarded message is kept whole as an attachment (a nested one is inside it already).
 */
final class MimeReader {

  static final int MAX_DEPTH = 20;
  static final int MAX_PARTS = 1000;
  private static final int MAX_HEADER = 2000;
  /** The text kept of a mail, all parts together, in characters. */
  static final int MAX_TEXT = 1_000_000;
  /** The bytes of an HTML part parsed; the rest is cut before it reaches jsoup. */
  static final int MAX_HTML = 2 << 20;
  /** The recipients kept: so many that the list, as JSON, always fits its column (20,000). */
  static final int MAX_TO = 100;

  static final int MAX_TO_CHARS = 8000;

  private final List<String> texts = new ArrayList<>();
  private final List<ParsedMail.Attachment> attachments = new ArrayList<>();
  private int parts;
  private int textChars;
  /** Inside a forwarded message: a message nested deeper is not kept again as an attachment. */
  private boolean forwarded;

  private MimeReader() {}

  static ParsedMail parse(byte[] raw) throws MessagingException {
    // A shared stream: the message and its parts read the bytes in place instead of copying them.
    MimeMessage m = new MimeMessage(MailSessions.parsing(), new SharedByteArrayInputStream(raw));
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
          addText(forwardHeader(inner));
          boolean outermost = !forwarded;
          forwarded = true;
          try {
            part(inner, depth + 1);
          } finally {
            forwarded = !outermost;
          }
          if (outermost) {
            String subject = subject(inner);
            attachments.add(new ParsedMail.Attachment(
                (subject.isBlank() ? "forwarded message" : subject) + ".eml",
                type,
                body(p, Integer.MAX_VALUE)));
          }
          return;
        }
      } else if ((type.equals("text/plain") || type.equals("text/html")) && !attached(p)) {
        if (textChars >= MAX_TEXT) return;
        if (type.equals("text/html")) {
          addText(HtmlText.of(Charsets.decode(body(p, MAX_HTML), charset(p))));
        } else {
          // A character is at most 4 bytes in any charset a mail uses.
          String text = Charsets.decode(body(p, 4 * (MAX_TEXT - textChars)), charset(p));
          addText(text.replace("\r\n", "\n"));
        }
        return;
      }
    } catch (MessagingException | IOException | RuntimeException e) {
      // A part that cannot be read as what it says it is is kept as it came, as an attachment.
    }
    if (p instanceof Message) return;
    attachments.add(new ParsedMail.Attachment(fileName(p, type), type, body(p, Integer.MAX_VALUE)));
  }

  /** Keeps a part's text, cut where the mail's text reaches {@value #MAX_TEXT} characters. */
  private void addText(String text) {
    int room = MAX_TEXT - textChars;
    if (room <= 0) return;
    String kept = text.length() <= room ? text : text.substring(0, room);
    texts.add(kept);
    textChars += kept.length() + 2;
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
          && !Charsets.decode(body(b, 64 << 10), charset(b)).isBlank()) plain = b;
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

  /**
   * The part's first {@code max} bytes, transfer encoding undone; as they came when that fails;
   * empty when nothing can be read.
   */
  static byte[] body(Part p, int max) {
    try (InputStream in = p.getInputStream()) {
      return in.readNBytes(max);
    } catch (IOException | MessagingException | RuntimeException e) {
      if (p instanceof MimePart mp) {
        try (InputStream in = rawStream(mp)) {
          return in.readNBytes(max);
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
      int chars = 0;
      for (InternetAddress a : InternetAddress.parseHeader(value, false)) {
        if (out.size() == MAX_TO) break;
        String shown = shown(a);
        // A long display name is shortened to its address; past the budget, no more are kept.
        if (chars + shown.length() > MAX_TO_CHARS) shown = bare(a);
        if (chars + shown.length() > MAX_TO_CHARS) break;
        out.add(shown);
        chars += shown.length();
      }
      return out;
    } catch (AddressException | RuntimeException e) {
      return List.of(clean(decodeHeader(value), MAX_HEADER));
    }
  }

  private static String bare(InternetAddress a) {
    return clean(a.getAddress() == null ? "" : a.getAddress(), MAX_HEADER);
  }

  /** The address alone of a sender as kept ({@code Name <address>}, or the address). */
  static String address(String shown) {
    int open = shown.lastIndexOf('<');
    if (open >= 0 && shown.endsWith(">")) return shown.substring(open + 1, shown.length() - 1);
    return shown;
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

  /**
   * A header value on one line, at most {@code max} characters, without control characters, line
   * and paragraph separators (made spaces) or bidirectional controls (dropped: a name could
   * otherwise show its text reversed, "gpj.exe" as "exe.jpg").
   */
  static String clean(String s, int max) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), max));
    for (int i = 0; i < s.length() && b.length() < max; i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        if (b.length() > 0 && b.charAt(b.length() - 1) != ' ') b.append(' ');
      } else if (!ShownText.isBidiControl(c)) {
        b.append(c);
      }
    }
    return b.toString().strip();
  }
}
