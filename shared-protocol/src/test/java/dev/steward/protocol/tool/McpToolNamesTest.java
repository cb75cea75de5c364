package dev.steward.protocol.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class McpToolNamesTest {

  @Test
  void server_and_tool_names_become_parts_of_a_dotted_tool_name() {
    assertEquals("get_tiny_image", McpToolNames.part("getTinyImage"));
    assertEquals(
        "trigger_long_running_operation", McpToolNames.part("trigger-long-running-operation"));
    assertEquals("brave_search", McpToolNames.part("Brave Search"));
    assertEquals("a_b", McpToolNames.part("a__b"));
    assertEquals("t_3d", McpToolNames.part("3d"));
    assertEquals("t", McpToolNames.part("—"));
    assertEquals("mcp.brave_search.", McpToolNames.prefix("brave-search"));
    // Each result is a valid tool name.
    new ToolDefinition(
        McpToolNames.prefix("3D-Printer") + McpToolNames.part("__weird__Name__"),
        "",
        dev.steward.protocol.json.Json.object(),
        dev.steward.protocol.json.Json.object(),
        Risk.LOW,
        Confirmation.NEVER,
        java.util.List.of());
  }

  @Test
  void the_server_part_is_read_back_from_a_tool_name() {
    assertEquals(Optional.of("fs"), McpToolNames.serverPart("mcp.fs.read_file"));
    assertEquals(Optional.empty(), McpToolNames.serverPart("files.read_text"));
  }
}
