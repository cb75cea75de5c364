package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steward.mcp.front.Cancellations;
import dev.steward.protocol.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the bridge does to the lines on its way in and out of MCP's stdio. */
class BridgeStreamsTest {

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
  void gated_stdin_holds_lines_after_the_first_until_it_is_opened() throws Exception {
    GatedStdin in = new GatedStdin(new java.io.ByteArrayInputStream("one\ntwo\n".getBytes()));
    byte[] b = new byte[100];
    assertEquals(4, in.read(b, 0, 100), "the first line alone");
    java.util.concurrent.CompletableFuture<Integer> next =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          try {
            return in.read(b, 0, 100);
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    Thread.sleep(200);
    org.junit.jupiter.api.Assertions.assertFalse(next.isDone(), "held until the bridge is ready");
    in.open();
    assertEquals(4, next.get(5, java.util.concurrent.TimeUnit.SECONDS));
  }

  @Test
  void only_the_tool_changes_the_bridge_makes_are_announced() throws Exception {
    java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
    QuietStart out = new QuietStart(sink);
    String changed = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n";
    String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";
    out.write((changed + answer).getBytes());
    out.expect(1);
    out.write(changed.getBytes());
    out.write(changed.getBytes());
    assertEquals(answer + changed, sink.toString());
  }

  @Test
  void gated_stdin_hands_out_the_lines_as_rewritten() throws Exception {
    GatedStdin in = new GatedStdin(
        new java.io.ByteArrayInputStream("one\ntwo\nthree".getBytes()), line -> line.toUpperCase());
    in.open();
    assertEquals("ONE\nTWO\nthree", new String(in.readAllBytes()));
  }
}
