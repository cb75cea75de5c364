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
  void namesThatWouldCollideGetDistinctModelNames() {
    ToolNames names = new ToolNames(List.of("a.b-c", "a.b_c", "a.b c"));
    assertNotEquals(names.modelName("a.b_c"), names.modelName("a.b c"));
    for (String tool : List.of("a.b-c", "a.b_c", "a.b c")) {
      assertEquals(Optional.of(tool), names.toolName(names.modelName(tool)));
    }
  }
}
