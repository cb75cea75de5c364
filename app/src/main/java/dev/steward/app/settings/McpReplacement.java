package dev.steward.app.settings;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.util.ShownText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A server entry added under the name of one that runs another program (another command, other
 * arguments or another URL): the name's tools would be another program's, under the ratings and
 * grants the user gave the old one, so it is never done without the user's word.
 *
 * @param was the program the server runs now, as {@link #program} shows it
 * @param now the program the new entry would run
 */
public record McpReplacement(String server, String was, String now) {

  /** The entries of {@code add} that would replace one of {@code existing} with another program. */
  static List<McpReplacement> of(
      Map<String, PolicyDocument.McpServer> existing, Map<String, PolicyDocument.McpServer> add) {
    List<McpReplacement> out = new ArrayList<>();
    add.forEach((name, next) -> {
      PolicyDocument.McpServer old = existing.get(name);
      if (old != null && !sameProgram(old, next))
        out.add(new McpReplacement(name, program(old), program(next)));
    });
    return out;
  }

  /** Whether two entries run the same program (their kept values may differ). */
  static boolean sameProgram(PolicyDocument.McpServer a, PolicyDocument.McpServer b) {
    return Objects.equals(a.command(), b.command())
        && a.args().equals(b.args())
        && Objects.equals(a.url(), b.url());
  }

  /**
   * What a server runs, on one line: its URL, or its command and arguments (an argument with a
   * space or a quote, or empty, quoted), hidden characters written out.
   */
  static String program(PolicyDocument.McpServer entry) {
    String url = entry.url();
    if (url != null) return ShownText.escaped(url);
    List<String> words = new ArrayList<>();
    words.add(Objects.requireNonNullElse(entry.command(), ""));
    for (String arg : entry.args())
      words.add(arg.isEmpty() || arg.matches(".*[\\s\"'].*") ? Json.write(arg) : arg);
    return ShownText.escaped(String.join(" ", words));
  }

  /** The question put to the user, naming each server and what it runs now and would run. */
  static String said(List<McpReplacement> replacing) {
    StringBuilder b = new StringBuilder();
    for (McpReplacement r : replacing)
      b.append("“")
          .append(ShownText.escaped(r.server()))
          .append("” runs now:\n    ")
          .append(r.was())
          .append("\nand would run instead:\n    ")
          .append(r.now())
          .append("\n\n");
    return b.append("Its tools' ratings and its grants are dropped, and it starts at once with the"
            + " new program. Replace it only if you meant to.")
        .toString();
  }
}
