package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.SecretTable;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The environment values of the MCP servers (their tokens and keys, most often), kept in {@code
 * config/secrets.json} ({@code mcp.env}: server → name → value) rather than in {@code policy.json}
 * (SPEC §13). A block pasted with its {@code env} has the values moved there when the policy is
 * saved or loaded; the policy keeps the servers without them, and a server starts with both.
 */
final class McpEnv {

  static final String SECTION = "mcp";
  static final String KEY = "env";

  private static final Logger LOG = Logger.getLogger(McpEnv.class.getName());

  private McpEnv() {}

  /**
   * Server → its kept values; a table that cannot be read gives none and says so in the log (the
   * next save replaces it with what the policy then gives).
   */
  static Map<String, Map<String, String>> read(PackSecrets secrets) {
    try {
      return rows(SecretTable.read(secrets, SECTION, KEY));
    } catch (IOException e) {
      LOG.warning(e.getMessage() + "; MCP servers start without the values kept there");
      return Map.of();
    }
  }

  private static Map<String, Map<String, String>> rows(ObjectNode table) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    table.fields().forEachRemaining(e -> out.put(e.getKey(), SecretTable.row(e.getValue())));
    return out;
  }

  /** The policy with every server's {@code env} emptied: what {@code policy.json} keeps. */
  static PolicyDocument without(PolicyDocument doc) {
    if (doc.mcpServers().values().stream().allMatch(s -> s.env().isEmpty())) return doc;
    Map<String, PolicyDocument.McpServer> servers = new LinkedHashMap<>();
    doc.mcpServers()
        .forEach((name, s) -> servers.put(
            name,
            s.env().isEmpty()
                ? s
                : new PolicyDocument.McpServer(s.command(), s.args(), Map.of(), s.url())));
    return doc.withMcpServers(servers);
  }

  /**
   * Keeps the values of {@code doc}: a server given with an {@code env} has exactly those (a paste
   * is the whole entry), one given without keeps what it had, a server no longer in the policy
   * has its values removed. One write, or none when nothing changes.
   */
  static void keep(PolicyDocument doc, PackSecrets secrets) throws IOException {
    Map<String, Map<String, String>> before = read(secrets);
    Map<String, Map<String, String>> after = new LinkedHashMap<>();
    doc.mcpServers().forEach((name, s) -> {
      Map<String, String> values = s.env().isEmpty() ? before.get(name) : s.env();
      if (values != null && !values.isEmpty()) after.put(name, new LinkedHashMap<>(values));
    });
    if (after.equals(before)) return;
    try {
      SecretTable.write(secrets, SECTION, KEY, after);
    } catch (IllegalArgumentException e) {
      throw new IOException("the MCP servers' environment values are too long together to keep in"
          + " config/secrets.json");
    }
  }

  /** The entry as the server starts: the policy's own values, then the kept ones. */
  static PolicyDocument.McpServer effective(
      String name, PolicyDocument.McpServer entry, Map<String, Map<String, String>> kept) {
    Map<String, String> values = kept.get(name);
    if (values == null || values.isEmpty() || entry.command() == null) return entry;
    Map<String, String> env = new LinkedHashMap<>(entry.env());
    env.putAll(values);
    return new PolicyDocument.McpServer(entry.command(), entry.args(), env, entry.url());
  }
}
