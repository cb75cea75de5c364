package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackSecrets;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** An MCP server's environment values: kept apart from the policy, for the program they were given for. */
class McpEnvTest {

  /** secrets.json in memory. */
  static final class Secrets implements PackSecrets {
    final Map<String, String> values = new HashMap<>();

    @Override
    public Optional<String> get(String section, String key) {
      return Optional.ofNullable(values.get(section + "." + key));
    }

    @Override
    public boolean set(String section, String key, @Nullable String value) {
      if (value == null) values.remove(section + "." + key);
      else values.put(section + "." + key, value);
      return value != null;
    }
  }

  static PolicyDocument with(String name, PolicyDocument.McpServer server) {
    return PolicyDocument.defaults().withMcpServers(Map.of(name, server));
  }

  static final PolicyDocument.McpServer GITHUB = PolicyDocument.McpServer.command(
      "npx", List.of("-y", "@modelcontextprotocol/server-github"), Map.of("TOKEN", "ghp_SECRET"));

  @Test
  void values_leave_the_policy_and_come_back_only_to_the_same_program() throws IOException {
    Secrets secrets = new Secrets();
    PolicyDocument pasted = with("github", GITHUB);
    PolicyDocument kept = McpEnv.without(pasted);
    assertEquals(Map.of(), kept.mcpServers().get("github").env());
    McpEnv.keep(pasted, secrets);
    assertTrue(secrets.values.get("mcp.env").contains("ghp_SECRET"));

    // Saved again as the window sees it (no env): the values stay and the server gets them.
    McpEnv.keep(kept, secrets);
    var rows = McpEnv.read(secrets);
    assertEquals(
        Map.of("TOKEN", "ghp_SECRET"),
        McpEnv.effective("github", kept.mcpServers().get("github"), rows).env());

    // Another program under the same name never starts with them, and they are dropped.
    PolicyDocument.McpServer other =
        PolicyDocument.McpServer.command("npx", List.of("-y", "evil-pkg"), Map.of());
    assertEquals(Map.of(), McpEnv.effective("github", other, rows).env(), "checked at start");
    McpEnv.keep(with("github", other), secrets);
    assertNull(secrets.values.get("mcp.env"), "and forgotten at the next save");
    McpEnv.keep(kept, secrets);
    assertNull(secrets.values.get("mcp.env"), "switching back does not bring them back");
  }

  @Test
  void a_url_servers_headers_are_kept_apart_and_go_only_to_the_address_they_were_given_for()
      throws IOException {
    Secrets secrets = new Secrets();
    PolicyDocument.McpServer api = PolicyDocument.McpServer.url(
        "https://api.example/mcp", Map.of("Authorization", "Bearer k-SECRET"));
    PolicyDocument pasted = with("api", api);
    PolicyDocument kept = McpEnv.without(pasted);
    assertEquals(Map.of(), kept.mcpServers().get("api").headers());
    McpEnv.keep(pasted, secrets);
    assertTrue(secrets.values.get("mcp.env").contains("k-SECRET"));
    McpEnv.keep(kept, secrets);
    var rows = McpEnv.read(secrets);
    assertEquals(
        Map.of("Authorization", "Bearer k-SECRET"),
        McpEnv.effective("api", kept.mcpServers().get("api"), rows).headers());
    assertEquals(List.of("Authorization"), McpEnv.names("api", kept.mcpServers().get("api"), rows));
    PolicyDocument.McpServer elsewhere = PolicyDocument.McpServer.url("https://evil.example/mcp");
    assertEquals(Map.of(), McpEnv.effective("api", elsewhere, rows).headers());
    McpEnv.keep(with("api", elsewhere), secrets);
    assertNull(secrets.values.get("mcp.env"), "another address never gets them, and they go");
  }

  @Test
  void a_server_removed_loses_its_values_and_a_failed_save_puts_them_back() throws IOException {
    Secrets secrets = new Secrets();
    McpEnv.keep(with("github", GITHUB), secrets);
    String before = secrets.values.get("mcp.env");
    var undo = McpEnv.keep(PolicyDocument.defaults(), secrets);
    assertNull(secrets.values.get("mcp.env"));
    undo.run();
    assertEquals(before, secrets.values.get("mcp.env"));
  }

  @Test
  void a_table_that_cannot_be_read_refuses_the_save_without_quoting_it() {
    Secrets secrets = new Secrets();
    secrets.values.put("mcp.env", "{\"github\": ghp_SECRET");
    IOException e =
        assertThrows(IOException.class, () -> McpEnv.keep(with("github", GITHUB), secrets));
    assertFalse(e.getMessage().contains("ghp_SECRET"), e.getMessage());
    assertEquals("{\"github\": ghp_SECRET", secrets.values.get("mcp.env"), "nothing was lost");
    assertEquals(Map.of(), McpEnv.read(secrets), "servers start without them meanwhile");
  }

  @Test
  void one_value_is_set_or_removed_and_the_others_stay() throws IOException {
    Secrets secrets = new Secrets();
    PolicyDocument pasted = with(
        "github",
        PolicyDocument.McpServer.command(
            "npx", GITHUB.args(), Map.of("TOKEN", "ghp_OLD", "OWNER", "me")));
    McpEnv.keep(pasted, secrets);
    PolicyDocument.McpServer entry = McpEnv.without(pasted).mcpServers().get("github");
    assertEquals(
        List.of("OWNER", "TOKEN"), McpEnv.set(secrets, "github", entry, "TOKEN", "ghp_NEW"));
    assertEquals(
        Map.of("TOKEN", "ghp_NEW", "OWNER", "me"),
        McpEnv.effective("github", entry, McpEnv.read(secrets)).env());
    assertEquals(List.of("TOKEN"), McpEnv.set(secrets, "github", entry, "OWNER", null));
    assertEquals(List.of(), McpEnv.set(secrets, "github", entry, "TOKEN", null));
    assertTrue(McpEnv.read(secrets).isEmpty(), "a server with no values has no row");
    // The next save of the policy (as the window sees it) keeps what was set.
    McpEnv.set(secrets, "github", entry, "TOKEN", "ghp_AGAIN");
    McpEnv.keep(McpEnv.without(pasted), secrets);
    assertEquals(
        Map.of("TOKEN", "ghp_AGAIN"),
        McpEnv.effective("github", entry, McpEnv.read(secrets)).env());
  }

  @Test
  void a_value_set_for_another_program_starts_its_row_anew() throws IOException {
    Secrets secrets = new Secrets();
    McpEnv.keep(with("github", GITHUB), secrets);
    PolicyDocument.McpServer other =
        PolicyDocument.McpServer.command("node", List.of("evil.js"), Map.of());
    assertEquals(List.of("X"), McpEnv.set(secrets, "github", other, "X", "1"));
    assertFalse(secrets.values.get("mcp.env").contains("ghp_SECRET"));
  }

  @Test
  void a_bad_name_or_value_is_refused_without_being_quoted() throws IOException {
    Secrets secrets = new Secrets();
    PolicyDocument.McpServer local = GITHUB.withoutSecrets();
    PolicyDocument.McpServer remote = PolicyDocument.McpServer.url("https://mcp.example.com/mcp");
    for (var bad : List.of(
        List.of(local, "ghp_TOKEN=1", "v"),
        List.of(local, "", "v"),
        List.of(local, "N", "a\0b"),
        List.of(remote, "ghp_TOKEN value", "v"),
        List.of(remote, "Mcp-Session-Id", "v"),
        List.of(remote, "X-Key", "ghp_TOKEN\n"))) {
      IllegalArgumentException e = assertThrows(
          IllegalArgumentException.class,
          () -> McpEnv.set(
              secrets, "s", (PolicyDocument.McpServer) bad.get(0), (String) bad.get(1), (String)
                  bad.get(2)));
      assertFalse(e.getMessage().contains("ghp_TOKEN"), e.getMessage());
    }
    assertNull(secrets.values.get("mcp.env"), "nothing was kept");
    assertEquals(List.of("X-Key"), McpEnv.set(secrets, "s", remote, "X-Key", "k"));
  }

  @Test
  void a_header_set_in_another_case_replaces_it() throws IOException {
    Secrets secrets = new Secrets();
    PolicyDocument.McpServer remote = PolicyDocument.McpServer.url("https://mcp.example.com/mcp");
    McpEnv.set(secrets, "r", remote, "X-Key", "one");
    assertEquals(List.of("x-key"), McpEnv.set(secrets, "r", remote, "x-key", "two"));
    assertEquals(
        Map.of("x-key", "two"),
        McpEnv.effective("r", remote, McpEnv.read(secrets)).headers());
  }

  @Test
  void a_pasted_env_meets_the_same_rules_unquoted() {
    for (Map<String, String> bad :
        List.of(Map.of("ghp_TOKEN=x", "v"), Map.of("", "v"), Map.of("N", "ghp_TOKEN\0"))) {
      IllegalArgumentException e = assertThrows(
          IllegalArgumentException.class,
          () -> PolicyDocument.McpServer.command("npx", List.of(), bad));
      assertFalse(e.getMessage().contains("ghp_TOKEN"), e.getMessage());
    }
  }

  @Test
  void a_failed_saves_undo_leaves_a_value_set_since() throws IOException {
    Secrets secrets = new Secrets();
    var undo = McpEnv.keep(with("github", GITHUB), secrets);
    PolicyDocument.McpServer entry = GITHUB.withoutSecrets();
    McpEnv.set(secrets, "github", entry, "TOKEN", "ghp_ROTATED");
    undo.run();
    assertTrue(secrets.values.get("mcp.env").contains("ghp_ROTATED"), "not put back over");
    var second = McpEnv.keep(
        with(
            "github",
            PolicyDocument.McpServer.command("npx", GITHUB.args(), Map.of("TOKEN", "ghp_NEXT"))),
        secrets);
    second.run();
    assertTrue(secrets.values.get("mcp.env").contains("ghp_ROTATED"), "put back as it was");
  }
}
