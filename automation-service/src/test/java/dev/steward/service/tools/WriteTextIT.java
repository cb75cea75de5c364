package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** files.write_text's encodings: what a dialog shows is what is written, or nothing is asked. */
class WriteTextIT {

  @Test
  void text_an_encoding_cannot_hold_is_refused_before_any_dialog_and_the_file_is_untouched()
      throws Exception {
    try (TestService t = TestService.start()) {
      StewardClient agent = t.client(Role.AGENT);
      StewardClient ui = t.client(Role.UI);
      Files.writeString(t.root.resolve("total.txt"), "Total: 5 EUR\n");
      var euro = args("path", "total.txt", "content", "Total: 5 €\n", "encoding", "us-ascii");
      Preflight.Result never = ui.preflight(TestService.id(), "files.write_text", euro);
      assertEquals(Preflight.DENY, never.decision(), never.toString());
      assertEquals(ToolErrorCodes.VALIDATION_ERROR, never.code(), never.toString());
      assertEquals("/content", never.field(), never.toString());
      assertNull(never.preview(), "no diff is shown for it");
      ToolResult refused = TestService.exec(agent, "files.write_text", euro);
      assertFalse(refused.ok());
      assertEquals(ToolErrorCodes.VALIDATION_ERROR, refused.error().code());
      assertEquals(
          "Total: 5 EUR\n", Files.readString(t.root.resolve("total.txt")), "nothing written");

      var unknown = args("path", "total.txt", "content", "x", "encoding", "utf8x");
      assertEquals(
          "/encoding",
          ui.preflight(TestService.id(), "files.write_text", unknown).field());

      // What the encoding holds is written in it.
      TestService.execConfirmed(
          ui,
          agent,
          "files.write_text",
          args("path", "total.txt", "content", "Total: 5 £\n", "encoding", "iso-8859-1"));
      assertEquals(
          "Total: 5 £\n",
          new String(Files.readAllBytes(t.root.resolve("total.txt")), StandardCharsets.ISO_8859_1));
    }
  }
}
