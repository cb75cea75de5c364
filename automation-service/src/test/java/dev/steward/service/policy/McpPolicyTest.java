package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.config.StewardHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** policy.json's mcp_servers: the shape users paste from other clients, checked strictly. */
class McpPolicyTest {

  @TempDir
  Path dir;

  @Test
  void a_pasted_claude_desktop_block_reads_as_it_is() throws Exception {
    PolicyDocument doc = PolicyStore.parse("{\"mcp_servers\": {"
        + "\"filesystem\": {\"command\": \"npx\", \"args\": [\"-y\","
        + " \"@modelcontextprotocol/server-filesystem\", \"/home/me/Notes\"],"
        + " \"env\": {\"DEBUG\": \"1\"}},"
        + "\"remote\": {\"url\": \"https://mcp.example.org/mcp\"}}}");
    assertEquals(List.of("filesystem", "remote"), List.copyOf(doc.mcpServers().keySet()));
    assertEquals("npx", doc.mcpServers().get("filesystem").command());
    assertEquals(Map.of("DEBUG", "1"), doc.mcpServers().get("filesystem").env());
    assertEquals("https://mcp.example.org/mcp", doc.mcpServers().get("remote").url());
  }

  @Test
  void a_token_pasted_where_a_name_or_a_value_should_be_is_never_quoted_in_the_error() {
    // What an error says goes to the window and, for a refused update, into the audit log.
    for (String entry : List.of(
        "{\"url\": \"https://x.example/mcp\", \"headers\": {\"Authorization: Bearer sk-SECRET1\": \"\"}}",
        "{\"url\": \"https://x.example/mcp\", \"headers\": \"Authorization: Bearer sk-SECRET2\"}",
        "{\"url\": \"https://x.example/mcp\", \"sk-SECRET3abc\": \"x\"}",
        "{\"url\": \"https://x.example/mcp\", \"headers\": {\"X-Key\": \"sk-SECRET4\\r\\n\"}}",
        "{\"url\": \"https://x.example/mcp\", \"headers\": {\"X-Key\": null}}",
        "{\"command\": \"npx\", \"env\": \"TOKEN=sk-SECRET5\"}",
        "{\"url\": \"https://x.example/mcp\", \"headers\": {\"x-key\": \"a\", \"X-Key\": \"b\"}}")) {
      PolicyError e = assertThrows(
          PolicyError.class, () -> PolicyStore.parse("{\"mcp_servers\": {\"s\": " + entry + "}}"));
      assertTrue(!e.getMessage().contains("SECRET"), e.getMessage());
    }
  }

  @Test
  void unknown_keys_and_half_entries_are_errors_that_say_what() {
    PolicyError unknown = assertThrows(
        PolicyError.class,
        () -> PolicyStore.parse(
            "{\"mcp_servers\": {\"fs\": {\"command\": \"npx\", \"cwd\": \"/tmp\"}}}"));
    assertTrue(unknown.getMessage().contains("\"cwd\""), unknown.getMessage());
    PolicyError both = assertThrows(
        PolicyError.class,
        () -> PolicyStore.parse(
            "{\"mcp_servers\": {\"fs\": {\"command\": \"npx\", \"url\": \"http://x/mcp\"}}}"));
    assertTrue(both.getMessage().contains("either"), both.getMessage());
    PolicyError none =
        assertThrows(PolicyError.class, () -> PolicyStore.parse("{\"mcp_servers\": {\"fs\": {}}}"));
    assertTrue(none.getMessage().contains("either"), none.getMessage());
  }

  @Test
  void names_that_would_clash_a_bad_url_and_overrides_of_unconfigured_servers_are_refused()
      throws Exception {
    PolicyStore store =
        PolicyStore.load(home(), name -> name.startsWith("mcp.") || name.equals("files.read_text"));
    PolicyDocument base = store.current().document();
    PolicyError clash = assertThrows(
        PolicyError.class,
        () -> store.update(base.withMcpServers(Map.of(
            "brave-search", PolicyDocument.McpServer.command("a", List.of(), Map.of()),
            "brave_search", PolicyDocument.McpServer.command("b", List.of(), Map.of())))));
    assertTrue(clash.getMessage().contains("alike"), clash.getMessage());
    PolicyError url = assertThrows(
        PolicyError.class,
        () -> store.update(
            base.withMcpServers(Map.of("x", PolicyDocument.McpServer.url("file:///etc/passwd")))));
    assertTrue(url.getMessage().contains("http"), url.getMessage());
    PolicyError override = assertThrows(
        PolicyError.class,
        () -> store.update(base.withOverrides(
            Map.of("mcp.ghost.read", new PolicyDocument.ToolOverride(null, null, true)))));
    assertTrue(override.getMessage().contains("mcp.ghost.read"), override.getMessage());

    store.update(base.withMcpServers(
            Map.of("ghost", PolicyDocument.McpServer.command("g", List.of(), Map.of())))
        .withOverrides(
            Map.of("mcp.ghost.read", new PolicyDocument.ToolOverride(null, null, true))));
    assertTrue(store.current().turnedOff("mcp.ghost.read"));
  }

  private StewardHome home() throws Exception {
    StewardHome home = StewardHome.under(dir.resolve("home"), dir.resolve("user"));
    Files.createDirectories(dir.resolve("user"));
    home.create();
    return home;
  }
}
