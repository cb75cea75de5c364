package dev.steward.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed frames over a real connection: the standard error, the refusal logged, service fine. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProtocolIT {

  TestService t;
  StewardClient ui;

  @BeforeAll
  void start() {
    t = TestService.start();
    ui = t.client(Role.UI);
  }

  @AfterAll
  void stop() {
    t.close();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "invalid JSON | {\"jsonrpc\":\"2.0\",\"id\":1,\"method\": | -32700",
        "empty batch | [] | -32600",
        "object id | {\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"session.hello\"} | -32600",
        "boolean id | {\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"session.hello\"} | -32600",
        "fractional id | {\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"session.hello\"} | -32600",
        "unknown method | {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"files.rm_rf\"} | -32601",
        "duplicate keys | {\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tool.execute\",\"method\":\"session.hello\"} | -32700",
        "missing version | {\"id\":9,\"method\":\"session.hello\"} | -32600",
        "params not an object | {\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tool.execute\",\"params\":\"x\"} | -32600",
        "bad params | {\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tool.execute\",\"params\":{\"trace_id\":[1]}} | -32602",
      })
  void refused_with_the_standard_code_and_logged(String name, String frame, int code)
      throws Exception {
    long before = t.service().audit().lastSeq();
    try (RawWebSocket raw = new RawWebSocket(t.port(), t.secret(Role.AGENT))) {
      JsonNode reply = Json.parse(raw.roundTrip(frame));
      JsonNode error = reply.isArray() ? reply.get(0).get("error") : reply.get("error");
      assertEquals(code, error.get("code").asInt(), reply.toString());
      assertTrue(
          raw.roundTrip("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"session.hello\"}")
              .contains("\"agent\""),
          "the connection keeps serving");
    }
    Audit.QueryResult rows = ui.call(
        Methods.AUDIT_QUERY,
        Map.of("text", Integer.toString(code), "decision", "blocked"),
        Audit.QueryResult.class);
    assertTrue(
        rows.rows().stream()
            .anyMatch(r -> r.kind().equals("protocol") && Long.parseLong(r.auditId()) > before),
        "refusal logged");
  }

  @ParameterizedTest(name = "nesting {0}")
  @CsvSource({"200"})
  void deep_nesting_is_an_invalid_request(int depth) throws Exception {
    try (RawWebSocket raw = new RawWebSocket(t.port(), t.secret(Role.AGENT))) {
      String frame = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"debug.echo\",\"params\":{\"x\":"
          + "[".repeat(depth) + "]".repeat(depth) + "}}";
      JsonNode reply = Json.parse(raw.roundTrip(frame));
      assertEquals(-32600, reply.at("/error/code").asInt());
      assertTrue(
          reply.at("/error/message").asText().toLowerCase().contains("nesting"), reply.toString());
    }
  }

  @org.junit.jupiter.api.Test
  void
      answers_carry_any_text_exactly_multi_byte_characters_control_characters_and_lone_surrogates() {
    String text = "naïve café — ✓ 𝄞 \u0000\u001b[31m \"quoted\" \\ lone \ud800 and \udc00 end";
    JsonNode echoed = ui.call(
        Methods.DEBUG_ECHO, Map.of("text", text, "big", "é".repeat(300_000)), JsonNode.class);
    assertEquals(text, echoed.get("text").asText());
    assertEquals("é".repeat(300_000), echoed.get("big").asText());
  }
}
