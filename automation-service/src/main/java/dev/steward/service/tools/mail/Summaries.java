package dev.steward.service.tools.mail;

import java.util.regex.Pattern;

/**
 * The summary a mail gets at once, before any model sees it: its first meaningful sentences, about
 * {@value #TARGET} characters — without quoted lines, the header block of a forward or a reply, a
 * greeting alone on its line, or the signature.
 */
final class Summaries {

  static final int TARGET = 200;

  private static final Pattern FORWARD_MARK = Pattern.compile(
      "(?i)^(-{2,}\\s*(forwarded message|original message|weitergeleitete nachricht|message transféré)"
          + ".*|begin forwarded message:?|_{5,})$");
  private static final Pattern HEADER_LINE =
      Pattern.compile("(?i)^(from|to|cc|date|sent|subject|von|an|datum|betreff|de|à|objet)\\s*:.*");
  private static final Pattern REPLY_INTRO =
      Pattern.compile("(?i)^(on .{3,200} wrote:|am .{3,200} schrieb .*:)$");
  private static final Pattern GREETING =
      Pattern.compile("(?i)^(hi|hello|hey|dear|hallo|bonjour|fyi)\\b[^.!?]{0,40}[,!:]?$");

  private Summaries() {}

  static String extract(String text, String subject) {
    StringBuilder out = new StringBuilder();
    boolean inHeaders = false;
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (raw.equals("-- ") || line.equals("--")) break; // the signature follows
      if (FORWARD_MARK.matcher(line).matches()) {
        inHeaders = true;
        continue;
      }
      if (inHeaders) {
        if (line.isEmpty() || HEADER_LINE.matcher(line).matches()) continue;
        inHeaders = false;
      }
      if (line.isEmpty()
          || line.startsWith(">")
          || REPLY_INTRO.matcher(line).matches()
          || GREETING.matcher(line).matches()) {
        continue;
      }
      if (out.length() > 0) out.append(' ');
      out.append(line.replaceAll("\\s+", " "));
      if (out.length() >= TARGET) break;
    }
    String summary = out.length() == 0 ? subject : out.toString();
    return cut(MimeReader.clean(summary, TARGET * 4), TARGET);
  }

  /** The text up to the last sentence end before {@code max}, else the last word, with an ellipsis. */
  static String cut(String s, int max) {
    if (s.length() <= max) return s;
    String head = s.substring(0, max);
    int sentence =
        Math.max(head.lastIndexOf(". "), Math.max(head.lastIndexOf("! "), head.lastIndexOf("? ")));
    if (sentence >= max / 2) return head.substring(0, sentence + 1);
    int space = head.lastIndexOf(' ');
    return (space >= max / 2 ? head.substring(0, space) : head) + "…";
  }
}
