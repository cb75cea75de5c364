package dev.steward.app.settings;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.util.ShownText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A server entry added under the name of one that runs another program — another command, other
 * arguments, another URL, or another environment where the environment decides what runs: the
 * name's tools would be another program's, under the ratings and grants the user gave the old
 * one, so it is never done without the user's word.
 *
 * @param was what the server runs now
 * @param now what the new entry would run
 */
public record McpReplacement(String server, Runs was, Runs now) {

  /**
   * What a server runs: its entry, and its environment as the window knows it — every name, and
   * the value where the window was given it. The service keeps environment values in
   * secrets.json and tells the window only their names, so a kept value is null here.
   */
  public record Runs(PolicyDocument.McpServer entry, Map<String, @Nullable String> env) {
    public Runs {
      env = java.util.Collections.unmodifiableMap(new TreeMap<>(env));
    }

    /** An entry whose values the window holds (a paste, or a policy that carries them). */
    static Runs of(PolicyDocument.McpServer entry) {
      return new Runs(entry, new TreeMap<String, @Nullable String>(entry.env()));
    }
  }

  /**
   * The entries of {@code add} that would replace one of {@code existing} with another program.
   * {@code kept} gives, by server, the names of the environment values the service keeps for it
   * (an entry of {@code existing} read from the service has none of its own).
   */
  static List<McpReplacement> of(
      Map<String, PolicyDocument.McpServer> existing,
      Map<String, List<String>> kept,
      Map<String, PolicyDocument.McpServer> add) {
    List<McpReplacement> out = new ArrayList<>();
    add.forEach((name, next) -> {
      PolicyDocument.McpServer old = existing.get(name);
      if (old == null) return;
      Runs was = running(old, kept.getOrDefault(name, List.of()));
      Runs now = Runs.of(next);
      // An entry without an environment keeps the values kept for the same command.
      if (next.env().isEmpty() && sameCommand(old, next)) now = new Runs(next, was.env());
      if (!sameProgram(was, now)) out.add(new McpReplacement(name, was, now));
    });
    return out;
  }

  /** An existing entry with its kept environment: its own values, else the names kept for it. */
  private static Runs running(PolicyDocument.McpServer entry, List<String> keptNames) {
    if (!entry.env().isEmpty() || entry.command() == null) return Runs.of(entry);
    Map<String, @Nullable String> env = new TreeMap<>();
    for (String n : keptNames) env.put(n, null);
    return new Runs(entry, env);
  }

  private static boolean sameCommand(PolicyDocument.McpServer a, PolicyDocument.McpServer b) {
    return Objects.equals(a.command(), b.command())
        && a.args().equals(b.args())
        && Objects.equals(a.url(), b.url());
  }

  /**
   * Whether two entries run the same program: the same command, arguments or URL, the same
   * environment names, and the same value of each variable that decides what runs (a value the
   * window does not know is the same only as another it does not know). Other values may differ:
   * a new key is the same server.
   */
  static boolean sameProgram(Runs a, Runs b) {
    if (!sameCommand(a.entry(), b.entry()) || !a.env().keySet().equals(b.env().keySet()))
      return false;
    for (String name : a.env().keySet())
      if (steersLoading(name) && !Objects.equals(a.env().get(name), b.env().get(name)))
        return false;
    return true;
  }

  /** Whether an environment variable decides which program starts or what it loads. */
  static boolean steersLoading(String name) {
    return PolicyDocument.McpServer.steersLoading(name);
  }

  /**
   * What a server runs, on one line: its URL, or its command and arguments — each word with a
   * space or a quote, or empty, quoted, so that a command "node notes.mjs" and the command node
   * with the argument notes.mjs read differently — hidden characters written out.
   */
  static String program(PolicyDocument.McpServer entry) {
    String url = entry.url();
    if (url != null) return ShownText.escaped(url);
    List<String> words = new ArrayList<>();
    words.add(word(Objects.requireNonNullElse(entry.command(), "")));
    for (String arg : entry.args()) words.add(word(arg));
    return ShownText.escaped(String.join(" ", words));
  }

  private static String word(String w) {
    return w.isEmpty() || w.matches("(?s).*[\\s\"'].*") ? Json.write(w) : w;
  }

  /**
   * Whether this is the replacement {@code asked} put to the user: the same server, from the
   * same program to the same program (compared as programs, never as the lines that show them).
   */
  boolean sameAs(McpReplacement asked) {
    return server.equals(asked.server())
        && sameProgram(was, asked.was())
        && sameProgram(now, asked.now());
  }

  /**
   * A server's environment on one line, by name; the value only of a variable that decides what
   * runs (any other may be a key), or "(kept)" where the window does not know it. Empty when none.
   */
  static String environment(Runs runs) {
    List<String> parts = new ArrayList<>();
    runs.env().forEach((name, value) -> {
      String shownName = ShownText.escaped(name);
      if (!steersLoading(name)) parts.add(shownName);
      else if (value == null) parts.add(shownName + " (kept, not shown)");
      else parts.add(shownName + "=" + ShownText.escaped(value));
    });
    return String.join(", ", parts);
  }

  /** The variables that differ in name, or in value where the value decides what runs. */
  private List<String> changedVariables() {
    Set<String> names = new TreeSet<>(was.env().keySet());
    names.addAll(now.env().keySet());
    List<String> out = new ArrayList<>();
    for (String name : names) {
      boolean both = was.env().containsKey(name) && now.env().containsKey(name);
      if (!both
          || (steersLoading(name)
              && !Objects.equals(was.env().get(name), now.env().get(name))))
        out.add(ShownText.escaped(name));
    }
    return out;
  }

  /** The question put to the user, naming each server and what it runs now and would run. */
  static String said(List<McpReplacement> replacing) {
    StringBuilder b = new StringBuilder();
    for (McpReplacement r : replacing) {
      b.append("“").append(ShownText.escaped(r.server())).append("” runs now:\n");
      lines(b, r.was());
      b.append("and would run instead:\n");
      lines(b, r.now());
      if (sameCommand(r.was().entry(), r.now().entry()))
        b.append("Its environment decides what runs, and these variables change: ")
            .append(String.join(", ", r.changedVariables()))
            .append(".\n");
      b.append('\n');
    }
    return b.append("Its tools' ratings and its grants are dropped, and it starts at once with the"
            + " new program. Replace it only if you meant to.")
        .toString();
  }

  private static void lines(StringBuilder b, Runs runs) {
    b.append("    ").append(program(runs.entry())).append('\n');
    String env = environment(runs);
    if (!env.isEmpty()) b.append("    with ").append(env).append('\n');
  }
}
