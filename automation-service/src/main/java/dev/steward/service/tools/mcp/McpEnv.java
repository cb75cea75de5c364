package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.SecretTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The environment values of the MCP servers (their tokens and keys, most often), kept in {@code
 * config/secrets.json} ({@code mcp.env}: server → name → value) rather than in {@code policy.json}
 * (SPEC §13). A block pasted with its {@code env} has the values moved there when the policy is
 * saved or loaded; the policy keeps the servers without them, and a server starts with both.
 * Values are bound to the program they were given for: a server whose command or arguments
 * change under the same name never starts with them.
 */
final class McpEnv {

  static final String SECTION = "mcp";
  static final String KEY = "env";
  /** The row's program; "=" is never part of an environment variable's name. */
  private static final String PROGRAM = "=program";

  private static final Logger LOG = Logger.getLogger(McpEnv.class.getName());

  private McpEnv() {}

  /** One server's kept values and the program they were given for. */
  record Row(String program, Map<String, String> values) {}

  /**
   * Server → its kept values; a table that cannot be read gives none and says so in the log (a
   * save is refused until it is mended).
   */
  static Map<String, Row> read(PackSecrets secrets) {
    try {
      return rows(SecretTable.read(secrets, SECTION, KEY));
    } catch (IOException e) {
      LOG.warning(e.getMessage() + "; MCP servers start without the values kept there");
      return Map.of();
    }
  }

  private static Map<String, Row> rows(ObjectNode table) {
    Map<String, Row> out = new LinkedHashMap<>();
    table.fields().forEachRemaining(e -> {
      Map<String, String> values = SecretTable.row(e.getValue());
      String program = values.remove(PROGRAM);
      if (program != null && !values.isEmpty()) out.put(e.getKey(), new Row(program, values));
    });
    return out;
  }

  /** The policy with every server's {@code env} emptied: what {@code policy.json} keeps. */
  static PolicyDocument without(PolicyDocument doc) {
    if (doc.mcpServers().values().stream().allMatch(s -> secrets(s).isEmpty())) return doc;
    Map<String, PolicyDocument.McpServer> servers = new LinkedHashMap<>();
    doc.mcpServers().forEach((name, s) -> servers.put(name, s.withoutSecrets()));
    return doc.withMcpServers(servers);
  }

  /** What an entry keeps in secrets.json: a command's {@code env}, a URL's {@code headers}. */
  static Map<String, String> secrets(PolicyDocument.McpServer s) {
    return s.command() != null ? s.env() : s.headers();
  }

  /**
   * Keeps the values of {@code doc}: a server given with an {@code env} has exactly those (a paste
   * is the whole entry); one given without keeps what it had if it still runs the same program;
   * a server removed, or changed to another program, loses them. One write, or none when nothing
   * changes; answers how to put the table back as it was.
   */
  static synchronized SecretTable.Undo keep(PolicyDocument doc, PackSecrets secrets)
      throws IOException {
    ObjectNode stored = SecretTable.read(secrets, SECTION, KEY);
    Map<String, Row> before = rows(stored);
    Map<String, Map<String, String>> after = new LinkedHashMap<>();
    doc.mcpServers().forEach((name, s) -> {
      String program = program(s);
      Row old = before.get(name);
      Map<String, String> values = !secrets(s).isEmpty()
          ? secrets(s)
          : old != null && old.program().equals(program) ? old.values() : Map.of();
      if (values.isEmpty()) return;
      Map<String, String> row = new LinkedHashMap<>(values);
      row.put(PROGRAM, program);
      after.put(name, row);
    });
    String was = stored.isEmpty() ? null : stored.toString();
    if (java.util.Objects.equals(SecretTable.text(after), was)) return () -> {};
    try {
      SecretTable.write(secrets, SECTION, KEY, after);
    } catch (IllegalArgumentException e) {
      throw new IOException("the MCP servers' environment values and headers are too long"
          + " together to keep in config/secrets.json");
    }
    String wrote = SecretTable.text(after);
    // Put back only what this save wrote: a value set alone since then stays.
    return () -> {
      synchronized (McpEnv.class) {
        ObjectNode now = SecretTable.read(secrets, SECTION, KEY);
        if (java.util.Objects.equals(now.isEmpty() ? null : now.toString(), wrote))
          secrets.set(SECTION, KEY, was);
      }
    };
  }

  /**
   * Sets (or, with a null value, removes) one kept value of server {@code name}, whose entry in the
   * policy is {@code entry}: the other values stay. Values kept for another program are dropped
   * first. Answers the names kept for the server now. Neither the name nor the value is quoted in
   * an error: a token may stand where a name should.
   */
  static synchronized java.util.List<String> set(
      PackSecrets secrets,
      String name,
      PolicyDocument.McpServer entry,
      String key,
      @org.jspecify.annotations.Nullable String value)
      throws IOException {
    ObjectNode stored = SecretTable.read(secrets, SECTION, KEY);
    Map<String, Row> rows = rows(stored);
    String program = program(entry);
    Row old = rows.get(name);
    Map<String, String> values =
        new LinkedHashMap<>(old != null && old.program().equals(program) ? old.values() : Map.of());
    // A header is one header in any case: setting "x-key" replaces "X-Key".
    if (entry.command() == null) values.keySet().removeIf(k -> k.equalsIgnoreCase(key));
    else values.remove(key);
    if (value != null) values.put(key, value);
    check(entry, values);
    Map<String, Map<String, String>> after = new LinkedHashMap<>();
    rows.forEach((server, row) -> {
      if (server.equals(name)) return;
      Map<String, String> r = new LinkedHashMap<>(row.values());
      r.put(PROGRAM, row.program());
      after.put(server, r);
    });
    if (!values.isEmpty()) {
      Map<String, String> r = new LinkedHashMap<>(values);
      r.put(PROGRAM, program);
      after.put(name, r);
    }
    try {
      SecretTable.write(secrets, SECTION, KEY, after);
    } catch (IllegalArgumentException e) {
      throw new IOException("the MCP servers' environment values and headers are too long"
          + " together to keep in config/secrets.json");
    }
    return values.keySet().stream().sorted().toList();
  }

  /** The server's values as the entry's own are checked, all together. */
  private static void check(PolicyDocument.McpServer entry, Map<String, String> values) {
    if (entry.command() != null)
      PolicyDocument.McpServer.command(entry.command(), entry.args(), values);
    else PolicyDocument.McpServer.url(java.util.Objects.requireNonNull(entry.url()), values);
  }

  /** The entry as the server starts: the policy's own values, then those kept for its program. */
  static PolicyDocument.McpServer effective(
      String name, PolicyDocument.McpServer entry, Map<String, Row> kept) {
    Row row = kept.get(name);
    if (row == null || !row.program().equals(program(entry))) return entry;
    Map<String, String> values = new LinkedHashMap<>(secrets(entry));
    values.putAll(row.values());
    return entry.command() != null
        ? PolicyDocument.McpServer.command(entry.command(), entry.args(), values)
        : PolicyDocument.McpServer.url(java.util.Objects.requireNonNull(entry.url()), values);
  }

  /** The names (never the values) kept for this server's program, sorted, for the window. */
  static java.util.List<String> names(
      String name, PolicyDocument.McpServer entry, Map<String, Row> kept) {
    Row row = kept.get(name);
    if (row == null || !row.program().equals(program(entry))) return java.util.List.of();
    return row.values().keySet().stream().sorted().toList();
  }

  /**
   * What an entry's values are for: the command and arguments it runs, or the address it reaches
   * (a URL's headers never go to another address), digested.
   */
  static String program(PolicyDocument.McpServer entry) {
    StringBuilder b = new StringBuilder();
    if (entry.command() == null) b.append("\0url\0").append(entry.url());
    else b.append(entry.command());
    for (String arg : entry.args()) b.append('\0').append(arg);
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256")
              .digest(b.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java", e);
    }
  }
}
