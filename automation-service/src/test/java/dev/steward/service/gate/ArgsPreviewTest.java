package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.service.tools.ToolContext;
import org.junit.jupiter.api.Test;

class ArgsPreviewTest {

  /** A tool that sends its one address, as web.fetch does. */
  private static final dev.steward.service.tools.Tool SENDS =
      new dev.steward.service.tools.BaseTool(new dev.steward.protocol.tool.ToolDefinition(
          "t.send",
          "sends",
          Json.object(),
          Json.object(),
          dev.steward.protocol.tool.Risk.LOW,
          dev.steward.protocol.tool.Confirmation.NEVER,
          java.util.List.of(),
          false,
          true,
          false)) {
        @Override
        public java.util.List<dev.steward.service.tools.HostUse> hosts(JsonNode args) {
          return java.util.List.of(
              new dev.steward.service.tools.HostUse("/url", args.path("url").asText()));
        }

        @Override
        public JsonNode run(JsonNode args, ToolContext ctx) {
          return Json.object();
        }
      };

  @Test
  void what_a_sending_call_sent_is_kept_whole_and_other_long_text_is_cut() {
    String url = "https://en.wikipedia.org/wiki/Paris?pad=" + "p".repeat(300) + "&d=the-secret";
    String preview =
        ArgsPreview.of(SENDS, Json.object().put("url", url).put("note", "n".repeat(300)));
    assertTrue(preview.contains("&d=the-secret"), preview);
    assertFalse(preview.contains("n".repeat(201)), preview);
  }
}
