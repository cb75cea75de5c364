package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolNamesTest {

  @Test
  void dottedNamesBecomeModelSafeAndMapBackThroughTheTable() {
    ToolNames names = new ToolNames(List.of("files.write_text", "browser.open_url"));
    assertEquals("files__write_text", names.modelName("files.write_text"));
    assertEquals(Optional.of("files.write_text"), names.toolName("files__write_text"));
    assertTrue(names.modelName("browser.open_url").matches("[a-zA-Z0-9_-]{1,64}"));
  }

  @Test
  void aNameTheTableDoesNotHoldIsUnknownNeverGuessed() {
    ToolNames names = new ToolNames(List.of("files.write_text"));
    assertEquals(Optional.empty(), names.toolName("files.write_text"));
    assertEquals(Optional.empty(), names.toolName("files_write_text"));
    assertEquals(Optional.empty(), names.toolName("FILES__WRITE_TEXT"));
    assertThrows(IllegalArgumentException.class, () -> names.modelName("files.delete"));
  }

  @Test
  void looselyForgivesSeparatorsAndCaseOnlyWhereOneToolIsMeant() {
    ToolNames names = new ToolNames(List.of("files.write_text", "a.b-c", "a.b_c"));
    for (String asked : List.of(
        "files__write_text",
        "files.write_text",
        "files_write_text",
        "FILES-WRITE-TEXT",
        "functions.files__write_text"))
      assertEquals(Optional.of("files.write_text"), names.loosely(asked), asked);
    assertEquals(Optional.empty(), names.loosely("a_b_c"), "two tools could be meant");
    assertEquals(Optional.of("a.b_c"), names.loosely(names.modelName("a.b_c")), "exact first");
    assertEquals(Optional.empty(), names.loosely("files_write"));
  }

  @Test
  void namesThatWouldCollideGetDistinctModelNames() {
    ToolNames names = new ToolNames(List.of("a.b-c", "a.b_c", "a.b c"));
    assertNotEquals(names.modelName("a.b_c"), names.modelName("a.b c"));
    for (String tool : List.of("a.b-c", "a.b_c", "a.b c")) {
      assertEquals(Optional.of(tool), names.toolName(names.modelName(tool)));
    }
  }

  @Test
  void aNameCutOrChangedNamesTheSameToolWhateverTheOrder() {
    String stem = "mcp.a-server-with-a-long-name." + "x".repeat(40);
    List<String> tools = List.of(stem + "_one", stem + "_two", "mcp.s.a b", "mcp.s.a+b");
    ToolNames forward = new ToolNames(tools);
    List<String> reversed = new java.util.ArrayList<>(tools);
    java.util.Collections.reverse(reversed);
    ToolNames backward = new ToolNames(reversed);
    ToolNames without = new ToolNames(List.of(stem + "_two", "mcp.s.a+b"));
    for (String tool : tools) {
      String name = forward.modelName(tool);
      assertTrue(name.matches("[a-zA-Z0-9_-]{1,64}"), name);
      assertEquals(name, backward.modelName(tool), tool);
      assertEquals(Optional.of(tool), forward.toolName(name));
    }
    assertEquals(forward.modelName(stem + "_two"), without.modelName(stem + "_two"));
    assertEquals(forward.modelName("mcp.s.a+b"), without.modelName("mcp.s.a+b"));
    assertNotEquals(forward.modelName(stem + "_one"), forward.modelName(stem + "_two"));
  }
}
