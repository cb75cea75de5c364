package dev.steward.service.policy;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackMethod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What a change of the policy changed, in short words for the audit log's {@code policy} row: the
 * folders, hosts, apps, standing grants, tool overrides and MCP servers added, removed or changed,
 * and which other sections changed. Nothing a section holds is quoted beyond names a person gave
 * (a folder, a host, a tool, an app's or a server's name when it is a plain word): an app's command
 * or a server's arguments may hold a token pasted there.
 */
public final class PolicyChanges {

  private PolicyChanges() {}

  /** The changes from {@code before} to {@code after}, in the order of the policy's sections. */
  public static List<String> between(PolicyDocument before, PolicyDocument after) {
    List<String> out = new ArrayList<>();
    keyed(
        out,
        "folder",
        byKey(before.paths(), PolicyDocument.PathRoot::root),
        byKey(after.paths(), PolicyDocument.PathRoot::root),
        (k, r) -> k + " (" + r.access() + ")",
        (k, was, now) -> k + ": " + was.access() + " → " + now.access());
    keyed(
        out,
        "app",
        byKey(before.apps(), PolicyDocument.AppEntry::id),
        byKey(after.apps(), PolicyDocument.AppEntry::id),
        (k, a) -> quoted(k),
        (k, was, now) -> quoted(k) + " (its command)");
    listed(out, "host", before.hosts().allow(), after.hosts().allow());
    if (before.hosts().allowPrivate() != after.hosts().allowPrivate())
      out.add(
          after.hosts().allowPrivate()
              ? "private network addresses allowed"
              : "private network addresses no longer allowed");
    keyed(
        out,
        "standing grant",
        byKey(before.grants(), PolicyDocument.StandingGrant::id),
        byKey(after.grants(), PolicyDocument.StandingGrant::id),
        (k, g) -> grant(g),
        (k, was, now) -> grant(now) + ", was " + grant(was));
    keyed(
        out,
        "override",
        before.overrides(),
        after.overrides(),
        (k, o) -> quoted(k) + ": " + override(o),
        (k, was, now) -> quoted(k) + ": " + override(now) + ", was " + override(was));
    listed(out, "confirm under", before.confirmUnder(), after.confirmUnder());
    keyed(
        out,
        "MCP server",
        before.mcpServers(),
        after.mcpServers(),
        (k, m) -> quoted(k),
        (k, was, now) -> quoted(k) + " (its command, address or settings)");
    section(out, "browser", before.browser(), after.browser());
    section(out, "household", before.household(), after.household());
    section(out, "web search", before.webSearch(), after.webSearch());
    section(out, "code", before.code(), after.code());
    section(out, "calendar", before.calendar(), after.calendar());
    section(out, "mail", before.mail(), after.mail());
    section(out, "packs", before.packs(), after.packs());
    return out;
  }

  private static String quoted(String name) {
    return PackMethod.quoted(name);
  }

  private static String grant(PolicyDocument.StandingGrant g) {
    return g.tool() + " in " + String.join(", ", g.paths())
        + (g.expiresAt() == null ? " until revoked" : " until " + g.expiresAt());
  }

  private static String override(PolicyDocument.ToolOverride o) {
    List<String> parts = new ArrayList<>();
    if (Boolean.TRUE.equals(o.disabled())) parts.add("disabled");
    if (o.risk() != null) parts.add("risk " + o.risk().wire());
    if (o.confirmation() != null) parts.add("confirmation " + o.confirmation().wire());
    return parts.isEmpty() ? "as defined" : String.join(", ", parts);
  }

  private static <T> Map<String, T> byKey(List<T> items, Function<T, String> key) {
    Map<String, T> out = new LinkedHashMap<>();
    for (T item : items) out.put(key.apply(item), item);
    return out;
  }

  /** What a changed entry is said to be: its key, what it was, what it is. */
  private interface Changed<T> {
    String say(String key, T was, T now);
  }

  /** Entries added ({@code +}), changed and removed ({@code -}), by key. */
  private static <T> void keyed(
      List<String> out,
      String what,
      Map<String, T> before,
      Map<String, T> after,
      BiFunction<String, T, String> described,
      Changed<T> changed) {
    for (Map.Entry<String, T> e : after.entrySet()) {
      T was = before.get(e.getKey());
      if (was == null) out.add("+" + what + " " + described.apply(e.getKey(), e.getValue()));
      else if (!was.equals(e.getValue()))
        out.add(what + " " + changed.say(e.getKey(), was, e.getValue()));
    }
    for (Map.Entry<String, T> e : before.entrySet()) {
      if (!after.containsKey(e.getKey()))
        out.add("-" + what + " " + described.apply(e.getKey(), e.getValue()));
    }
  }

  private static void listed(
      List<String> out, String what, List<String> before, List<String> after) {
    for (String s : after) if (!before.contains(s)) out.add("+" + what + " " + s);
    for (String s : before) if (!after.contains(s)) out.add("-" + what + " " + s);
  }

  private static void section(List<String> out, String what, Object before, Object after) {
    if (!Objects.equals(before, after)) out.add(what + " settings changed");
  }
}
