package dev.steward.service.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.audit.WholeArgs;
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
    ArgsPreview.Preview p =
        ArgsPreview.of(SENDS, Json.object().put("url", url).put("note", "n".repeat(300)));
    String preview = p.cut();
    assertTrue(preview.contains("&d=the-secret"), preview);
    assertFalse(preview.contains("n".repeat(201)), preview);
  }

  @Test
  void a_cut_preview_ends_with_the_hash_of_the_whole_it_cut() {
    JsonNode args = Json.object().put("url", "https://example.org/").put("note", "n".repeat(300));
    ArgsPreview.Preview p = ArgsPreview.of(SENDS, args);
    assertEquals(args.toString(), p.whole());
    String hash = "c".repeat(64);
    assertEquals(hash, WholeArgs.hashIn(p.kept(hash)));
    assertTrue(p.kept(hash).endsWith(WholeArgs.marker(p.whole().length(), hash)));
    assertNull(WholeArgs.hashIn(p.notKept("why")));
    assertTrue(
        p.notKept("why").endsWith("[whole not kept: " + p.whole().length() + " chars, why]"));
  }

  /**
   * The log escapes control characters (six characters each) and cuts at its own bound: measured
   * unescaped, a preview of them would lose its mark there.
   */
  @Test
  void a_preview_is_measured_as_the_log_stores_it_so_its_mark_survives() {
    com.fasterxml.jackson.databind.node.ObjectNode args = Json.object();
    for (int i = 0; i < 3; i++) args.put("k" + i, "\u007f".repeat(150) + "\u2028" + i);
    ArgsPreview.Preview p = ArgsPreview.of(SENDS, args);
    assertNotNull(p.whole());
    String hash = "d".repeat(64);
    String stored = dev.steward.service.audit.Text.clean(
        p.kept(hash), dev.steward.service.audit.AuditEntry.MAX_PREVIEW);
    assertEquals(hash, WholeArgs.hashIn(stored), stored);
  }

  @Test
  void a_preview_cut_nowhere_names_no_whole_even_when_its_text_mimics_the_mark() {
    String mimic = WholeArgs.marker(3, "a".repeat(64));
    ArgsPreview.Preview p = ArgsPreview.of(SENDS, Json.object().put("note", mimic));
    assertNull(p.whole());
    assertNull(WholeArgs.hashIn(p.kept("e".repeat(64))), p.cut());
  }

  @Test
  void many_short_arguments_past_the_row_length_are_kept_whole_too() {
    com.fasterxml.jackson.databind.node.ObjectNode args = Json.object();
    for (int i = 0; i < 40; i++) args.put("k" + i, "v".repeat(150));
    ArgsPreview.Preview p = ArgsPreview.of(SENDS, args);
    assertEquals(args.toString(), p.whole());
    assertTrue(p.kept("f".repeat(64)).length() <= 1_990, p.cut().length() + "");
    assertNotNull(WholeArgs.hashIn(p.kept("f".repeat(64))));
  }

  @Test
  void sensitive_arguments_stay_hashed_in_the_whole_as_in_the_preview() {
    dev.steward.service.tools.Tool writes =
        new dev.steward.service.tools.BaseTool(new dev.steward.protocol.tool.ToolDefinition(
            "t.write",
            "writes",
            Json.object(),
            Json.object(),
            dev.steward.protocol.tool.Risk.LOW,
            dev.steward.protocol.tool.Confirmation.NEVER,
            java.util.List.of(),
            false,
            false,
            false)) {
          @Override
          public java.util.Set<String> sensitiveArgs() {
            return java.util.Set.of("content");
          }

          @Override
          public JsonNode run(JsonNode args, ToolContext ctx) {
            return Json.object();
          }
        };
    ArgsPreview.Preview p = ArgsPreview.of(
        writes, Json.object().put("content", "the-secret-text").put("path", "p".repeat(400)));
    assertNotNull(p.whole());
    assertFalse(p.whole().contains("the-secret-text"), p.whole());
    assertTrue(p.whole().contains("p".repeat(400)), p.whole());
  }
}
