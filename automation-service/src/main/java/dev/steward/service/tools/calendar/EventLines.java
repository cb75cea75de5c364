package dev.steward.service.tools.calendar;

import dev.steward.protocol.util.ShownText;
import java.util.Optional;

/**
 * An event as a dialog shows it below its sentence, one field a line ("- title: …"): a title
 * with a line break in it is written on its one line, escaped, so it cannot add a line of its own.
 */
final class EventLines {

  private EventLines() {}

  /** The event as it is ({@code '-'}, going) or as it will be ({@code '+'}, new). */
  static String of(char sign, String title, Optional<Times.Span> span, Optional<String> repeats) {
    StringBuilder b = new StringBuilder();
    line(b, sign, "title", ShownText.escaped(title));
    span.ifPresent(s -> line(b, sign, "when", Times.say(s)));
    repeats.ifPresent(r -> line(b, sign, "repeats", r));
    return b.toString();
  }

  /** An event as it is and as it will be: what changes as a pair of lines, the rest as it stands. */
  static String change(
      String oldTitle,
      Optional<Times.Span> oldSpan,
      String newTitle,
      Times.Span newSpan,
      Optional<String> repeats) {
    StringBuilder b = new StringBuilder();
    pair(b, "title", ShownText.escaped(oldTitle), ShownText.escaped(newTitle));
    pair(b, "when", oldSpan.map(Times::say).orElse("?"), Times.say(newSpan));
    repeats.ifPresent(r -> line(b, ' ', "repeats", r));
    return b.toString();
  }

  private static void pair(StringBuilder b, String field, String was, String will) {
    if (was.equals(will)) {
      line(b, ' ', field, was);
    } else {
      line(b, '-', field, was);
      line(b, '+', field, will);
    }
  }

  private static void line(StringBuilder b, char sign, String field, String value) {
    b.append(sign).append(' ').append(field).append(": ").append(value).append('\n');
  }
}
