package dev.steward.app.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpPasteTest {

  @Test
  void blocks_from_claude_desktop_vs_code_and_bare_maps_read_alike() {
    String claude =
        "{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}}}";
    String vscode = "{\"servers\": {\"fs\": {\"type\": \"stdio\", \"command\": \"npx\","
        + " \"args\": [\"-y\", \"pkg\"]}}}";
    String bare = "{\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"]}}";
    PolicyDocument.McpServer expected =
        PolicyDocument.McpServer.command("npx", List.of("-y", "pkg"), Map.of());
    for (String text : List.of(claude, vscode, bare))
      assertEquals(Map.of("fs", expected), McpPaste.read(text), text);
    assertEquals(
        PolicyDocument.McpServer.url("https://x.example/mcp"),
        McpPaste.read(
                "{\"mcpServers\": {\"r\": {\"type\": \"http\", \"url\": \"https://x.example/mcp\"}}}")
            .get("r"));
  }

  @Test
  void a_url_servers_headers_are_read_and_a_header_steward_sets_itself_is_refused() {
    String claudeCode = "{\"mcpServers\": {\"api\": {\"type\": \"http\", \"url\":"
        + " \"https://api.example/mcp\", \"headers\": {\"Authorization\": \"Bearer k-1\"}}}}";
    assertEquals(
        PolicyDocument.McpServer.url(
            "https://api.example/mcp", Map.of("Authorization", "Bearer k-1")),
        McpPaste.read(claudeCode).get("api"));
    IllegalArgumentException host = assertThrows(
        IllegalArgumentException.class,
        () -> McpPaste.read("{\"api\": {\"url\": \"https://api.example/mcp\", \"headers\":"
            + " {\"Host\": \"evil.example\"}}}"));
    assertTrue(host.getMessage().contains("\"host\""), host.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> McpPaste.read("{\"api\": {\"url\": \"https://api.example/mcp\", \"headers\":"
            + " {\"X-Key\": \"a\\r\\nInjected: yes\"}}}"));
    assertThrows(
        IllegalArgumentException.class,
        () -> McpPaste.read("{\"fs\": {\"command\": \"npx\", \"headers\": {\"X-Key\": \"a\"}}}"));
  }

  @Test
  void what_steward_does_not_know_is_named_never_dropped() {
    IllegalArgumentException e = assertThrows(
        IllegalArgumentException.class,
        () -> McpPaste.read("{\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"cwd\": \"/\"}}}"));
    assertTrue(e.getMessage().contains("\"cwd\""), e.getMessage());
    assertTrue(e.getMessage().contains("\"fs\""), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> McpPaste.read("not json"));
    assertThrows(IllegalArgumentException.class, () -> McpPaste.read("{\"mcpServers\": {}}"));
  }

  @Test
  void a_typed_command_is_split_into_words_as_a_shell_would_without_a_shell() {
    assertEquals(
        PolicyDocument.McpServer.command(
            "npx", List.of("-y", "@scope/server", "/home/me/My Notes", "a\"b"), Map.of()),
        McpPaste.typed("npx -y @scope/server '/home/me/My Notes' \"a\\\"b\""));
    assertEquals(
        PolicyDocument.McpServer.url("http://127.0.0.1:3001/mcp"),
        McpPaste.typed(" http://127.0.0.1:3001/mcp "));
    assertThrows(IllegalArgumentException.class, () -> McpPaste.typed("npx 'open"));
  }
}
