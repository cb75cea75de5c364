package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.method.Role;
import dev.steward.service.RawWebSocket;
import dev.steward.service.TestService;
import dev.steward.service.rpc.Limits;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Over-limit traffic gets a clear error on its own connection while others keep being served. */
class LimitsIT {

  @Test
  void a_connection_over_its_message_rate_is_told_to_slow_down_and_others_are_unaffected()
      throws Exception {
    try (TestService t = TestService.start(p -> p, new Limits(1 << 20, 32, 5))) {
      try (RawWebSocket flood = new RawWebSocket(t.port(), t.secret(Role.AGENT))) {
        String five = "["
            + String.join(
                ",",
                java.util.Collections.nCopies(
                    5, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session.hello\"}"))
            + "]";
        assertEquals(5, Json.parse(flood.roundTrip(five)).size(), "within the rate: served");
        // The rate is spent: a single call now is answered under its id, so its caller does not
        // wait in vain.
        JsonNode single = Json.parse(
            flood.roundTrip("{\"jsonrpc\":\"2.0\",\"id\":\"late\",\"method\":\"session.hello\"}"));
        assertEquals("late", single.get("id").asText(), single.toString());
        assertEquals(ErrorCodes.RATE_LIMITED, single.at("/error/code").asInt(), single.toString());
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 60; i++) {
          if (i > 0) batch.append(',');
          batch
              .append("{\"jsonrpc\":\"2.0\",\"id\":")
              .append(i)
              .append(",\"method\":\"session.hello\"}");
        }
        JsonNode reply = Json.parse(flood.roundTrip(batch.append(']').toString()));
        assertEquals(60, reply.size(), "every request is answered under its own id");
        for (int i = 0; i < 60; i++) {
          assertEquals(i, reply.get(i).get("id").asInt());
          assertEquals(
              ErrorCodes.RATE_LIMITED, reply.get(i).at("/error/code").asInt(), reply.toString());
        }
        assertTrue(reply.get(0).at("/error/message").asText().contains("slow down"));
      }
      StewardClient other = t.client(Role.AGENT);
      assertEquals(Role.AGENT, other.hello().role());
      // In the audit log: the first refusal at once, the rest counted in one row (here written
      // when the connection closed), never a row each.
      StewardClient ui = t.client(Role.UI);
      List<String> said = new ArrayList<>();
      for (int i = 0; i < 100 && said.size() < 2; i++) {
        Thread.sleep(50);
        said = ui
            .call(
                dev.steward.protocol.method.Methods.AUDIT_QUERY,
                java.util.Map.of("limit", 100),
                dev.steward.protocol.method.Audit.QueryResult.class)
            .rows()
            .stream()
            .filter(r -> Integer.toString(ErrorCodes.RATE_LIMITED).equals(r.errorCode()))
            .map(r -> String.valueOf(r.reason()))
            .toList();
      }
      assertEquals(2, said.size(), said.toString());
      assertTrue(said.stream().anyMatch(s -> s.endsWith("(60 messages refused)")), said.toString());
    }
  }

  @Test
  void calls_beyond_the_concurrency_limit_are_refused_with_a_clear_error() throws Exception {
    try (TestService t = TestService.start(p -> p, new Limits(1 << 20, 2, 5000))) {
      for (int d = 0; d < 20; d++) {
        var dir = java.nio.file.Files.createDirectories(t.root.resolve("d" + d));
        for (int f = 0; f < 100; f++)
          java.nio.file.Files.writeString(
              dir.resolve("f" + f), "x"); // makes each listing take a while
      }
      try (RawWebSocket raw = new RawWebSocket(t.port(), t.secret(Role.AGENT))) {
        StringBuilder batch = new StringBuilder("[");
        for (int i = 0; i < 40; i++) {
          if (i > 0) batch.append(',');
          batch
              .append("{\"jsonrpc\":\"2.0\",\"id\":")
              .append(i)
              .append(",\"method\":\"tool.execute\",\"params\":{\"trace_id\":\"t\",\"call_id\":\"c")
              .append(i)
              .append(
                  "\",\"tool\":\"files.list_dir\",\"args\":{\"path\":\".\",\"recursive\":true}}}");
        }
        JsonNode replies = Json.parse(raw.roundTrip(batch.append(']').toString()));
        List<Integer> codes = new ArrayList<>();
        replies.forEach(r -> codes.add(r.has("error") ? r.at("/error/code").asInt() : 0));
        assertEquals(40, codes.size());
        assertTrue(codes.contains(ErrorCodes.TOO_MANY_CALLS), codes.toString());
        assertTrue(codes.contains(0), "calls within the limit ran: " + codes);
      }
    }
  }

  @Test
  void one_secrets_holder_cannot_flood_the_log_through_more_connections() throws Exception {
    try (TestService t = TestService.start(p -> p, new Limits(1 << 20, 32, 5000, 3, 50))) {
      List<RawWebSocket> three = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) three.add(new RawWebSocket(t.port(), t.secret(Role.AGENT)));
        int fourth = RawHttp.status(
            t.port(),
            RawHttp.upgrade(
                "127.0.0.1:" + t.port(), "Authorization: Bearer " + t.secret(Role.AGENT) + "\r\n"));
        assertEquals(429, fourth, "a fourth connection with the same secret is refused");
        // Each connection alone is well under its own rate; together they are over the holder's.
        List<Integer> codes = new ArrayList<>();
        for (RawWebSocket c : three) {
          StringBuilder batch = new StringBuilder("[");
          for (int i = 0; i < 30; i++)
            batch
                .append(i > 0 ? "," : "")
                .append("{\"jsonrpc\":\"2.0\",\"id\":")
                .append(i)
                .append(",\"method\":\"session.hello\"}");
          JsonNode reply = Json.parse(c.roundTrip(batch.append(']').toString()));
          JsonNode first = reply.get(0);
          codes.add(first.has("error") ? first.at("/error/code").asInt() : 0);
          if (first.has("error"))
            assertTrue(
                first.at("/error/message").asText().contains("with the agent secret"),
                reply.toString());
        }
        assertTrue(codes.contains(ErrorCodes.RATE_LIMITED), codes.toString());
        assertEquals(
            Role.UI, t.client(Role.UI).hello().role(), "another secret's holder is served");
      } finally {
        three.forEach(RawWebSocket::close);
      }
    }
  }

  @Test
  void a_client_that_reads_none_of_its_answers_is_dropped_and_others_are_served() throws Exception {
    try (TestService t = TestService.start()) {
      String padding = "x".repeat(16 * 1024);
      try (java.net.Socket s = new java.net.Socket()) {
        s.setReceiveBufferSize(4096); // it reads nothing: its answers back up at once
        s.connect(new java.net.InetSocketAddress("127.0.0.1", t.port()));
        java.io.OutputStream out = s.getOutputStream();
        out.write(("GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:" + t.port() + "\r\n"
                + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Authorization: Bearer " + t.secret(Role.AGENT) + "\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.flush();
        boolean dropped = false;
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        for (int i = 0; !dropped && System.nanoTime() < deadline; i++) {
          try {
            out.write(maskedText("{\"jsonrpc\":\"2.0\",\"id\":" + i
                + ",\"method\":\"debug.echo\",\"params\":{\"pad\":\"" + padding + "\"}}"));
            out.flush();
            if (i % 100 == 99) Thread.sleep(20); // under the connection's message rate
          } catch (java.io.IOException e) {
            dropped = true;
          }
        }
        assertTrue(dropped, "the service dropped a client that read none of its answers");
      }
      try (StewardClient other = t.client(Role.AGENT)) {
        JsonNode echo =
            other.call("debug.echo", Json.object().put("still", "here"), JsonNode.class);
        assertEquals("here", echo.path("still").asText());
      }
    }
  }

  /** One client-to-server text frame, masked as RFC 6455 wants (with a zero mask: the same bytes). */
  private static byte[] maskedText(String text) {
    byte[] payload = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream f = new java.io.ByteArrayOutputStream(payload.length + 14);
    f.write(0x81);
    if (payload.length < 126) {
      f.write(0x80 | payload.length);
    } else {
      f.write(0x80 | 126);
      f.write(payload.length >>> 8);
      f.write(payload.length & 0xff);
    }
    f.writeBytes(new byte[4]);
    f.writeBytes(payload);
    return f.toByteArray();
  }
}
