package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.steward.protocol.policy.PolicyDocument;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A server's accepted tools hold for the program it runs, and its environment can change that. */
class PinKeyTest {

  private static String key(Map<String, String> env) {
    return ServerLink.pinKey(
        "github",
        PolicyDocument.McpServer.command(
            "npx", List.of("-y", "@modelcontextprotocol/server-github"), env));
  }

  @Test
  void a_new_key_in_the_environment_keeps_the_accepted_tools() {
    assertEquals(key(Map.of("GITHUB_TOKEN", "old")), key(Map.of("GITHUB_TOKEN", "new")));
  }

  @Test
  void what_decides_which_program_runs_makes_another_program() {
    String plain = key(Map.of("GITHUB_TOKEN", "t"));
    assertNotEquals(plain, key(Map.of("GITHUB_TOKEN", "t", "NODE_OPTIONS", "--require x.js")));
    assertNotEquals(
        key(Map.of("GITHUB_TOKEN", "t", "PATH", "/usr/bin")),
        key(Map.of("GITHUB_TOKEN", "t", "PATH", "/home/u/Downloads:/usr/bin")));
    assertNotEquals(plain, key(Map.of("GITHUB_TOKEN", "t", "npm_config_registry", "https://x")));
  }

  @Test
  void a_server_without_an_environment_keeps_the_key_it_had() {
    assertEquals("github@" + key(Map.of()).substring("github@".length()), key(Map.of()));
    assertEquals(-1, key(Map.of()).indexOf('.'));
  }
}
