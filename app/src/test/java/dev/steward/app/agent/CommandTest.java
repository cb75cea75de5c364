package dev.steward.app.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CommandTest {

  private final RemoteTools tools = new RemoteTools(FakeLink.definitions());

  @Test
  void parsesNameAndRest() {
    assertEquals(
        new Command("call", "files.list_dir {\"path\": \"a b\"}"),
        Command.parse("  /CALL   files.list_dir {\"path\": \"a b\"} "));
    assertEquals(new Command("help", ""), Command.parse("/help"));
  }

  @Test
  void callBecomesAProposedCallWithItsArguments() {
    ProposedCall call =
        Command.parse("/call files.list_dir {\"path\":\"~/Steward\"}").toCall(tools, "c-1");
    assertEquals("files.list_dir", call.toolName());
    assertEquals("~/Steward", call.args().get("path").asText());
  }

  @Test
  void malformedCallsSayWhatIsWrong() {
    IllegalArgumentException unknown = assertThrows(
        IllegalArgumentException.class,
        () -> Command.parse("/call files.nope {}").toCall(tools, "c"));
    assertTrue(unknown.getMessage().contains("/tools"));
    IllegalArgumentException json = assertThrows(
        IllegalArgumentException.class,
        () -> Command.parse("/call files.list_dir {path:").toCall(tools, "c"));
    assertTrue(json.getMessage().contains("not valid JSON"));
    IllegalArgumentException array = assertThrows(
        IllegalArgumentException.class,
        () -> Command.parse("/call files.list_dir [1]").toCall(tools, "c"));
    assertTrue(array.getMessage().contains("JSON object"));
    assertTrue(assertThrows(
            IllegalArgumentException.class, () -> Command.parse("/call").toCall(tools, "c"))
        .getMessage()
        .startsWith("Usage"));
  }
}
