package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steward.protocol.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CancellationsTest {

  @Test
  void a_call_carries_its_request_id_and_its_cancellation_names_the_call() throws Exception {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    String call = c.line("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
        + "\"params\":{\"name\":\"files.read_text\",\"arguments\":{}}}");
    assertEquals(
        "7", Json.parse(call).at("/params/_meta/" + "dev.steward~1request_id").asText());
    c.started("7", "mcp-call-1");
    String other = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}";
    assertEquals(other, c.line(other));
    c.line(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}");
    assertEquals(List.of("mcp-call-1"), cancelled);
  }

  @Test
  void a_cancellation_that_comes_before_its_call_started_still_cancels_it() {
    List<String> cancelled = new ArrayList<>();
    Cancellations c = new Cancellations(cancelled::add);
    c.line(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"a\"}}");
    c.started("\"a\"", "mcp-call-2");
    assertEquals(List.of("mcp-call-2"), cancelled);
  }

  @Test
  void gated_stdin_hands_out_the_lines_as_rewritten() throws Exception {
    GatedStdin in = new GatedStdin(
        new java.io.ByteArrayInputStream("one\ntwo\nthree".getBytes()), line -> line.toUpperCase());
    in.open();
    assertEquals("ONE\nTWO\nthree", new String(in.readAllBytes()));
  }
}
