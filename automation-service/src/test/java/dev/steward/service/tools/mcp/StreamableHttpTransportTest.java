package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Steward's Streamable HTTP transport against a loopback server that misbehaves on purpose. */
class StreamableHttpTransportTest {

  /** A transport to the test server's /mcp with no sign-in and no headers of the entry's. */
  private static StreamableHttpTransport plain(HttpServer server) {
    return new StreamableHttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"),
        new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper()),
        java.time.Duration.ofSeconds(30),
        why -> {},
        java.util.Optional::empty,
        java.util.Map.of());
  }

  @Test
  void an_answer_lost_with_its_stream_fails_at_once_and_a_session_goes_with_each_request()
      throws Exception {
    List<String> sessions = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", x -> {
      sessions.add(String.valueOf(x.getRequestHeaders().getFirst("Mcp-Session-Id")));
      String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      if (x.getRequestMethod().equals("GET")) {
        respond(x, 405, "text/plain", "");
      } else if (body.contains("\"silent\"")) {
        respond(x, 202, "", "");
      } else if (body.contains("\"flood\"")) {
        // One line longer than any message may be, with no end: it must not fill the memory.
        x.getResponseHeaders().set("Content-Type", "text/event-stream");
        x.sendResponseHeaders(200, 0);
        try (var out = x.getResponseBody()) {
          out.write("data: ".getBytes(StandardCharsets.US_ASCII));
          byte[] chunk = new byte[1 << 20];
          java.util.Arrays.fill(chunk, (byte) 'A');
          // Without end: a reader with no limit per line would read until it runs out of memory.
          for (int i = 0; i < 4096; i++) out.write(chunk);
        } catch (IOException e) {
          // the client stopped reading: that is the point
        }
      } else if (body.contains("\"ping\"")) {
        // A stream with no event id: it cannot be resumed, and it ends before the answer.
        x.getResponseHeaders().set("Mcp-Session-Id", "s-1");
        respond(x, 200, "text/event-stream", "data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n");
      } else {
        x.getResponseHeaders().set("Mcp-Session-Id", "s-1");
        respond(x, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
      }
    });
    server.start();
    BlockingQueue<McpSchema.JSONRPCMessage> got = new LinkedBlockingQueue<>();
    StreamableHttpTransport t = plain(server);
    try {
      t.connect(m -> m.doOnNext(got::add).then(Mono.empty())).block();
      t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "tools/list", 1, null)).block();
      McpSchema.JSONRPCMessage first = got.poll(5, TimeUnit.SECONDS);
      assertTrue(first instanceof McpSchema.JSONRPCResponse r && r.id().equals(1), "" + first);

      long start = System.nanoTime();
      t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "ping", 2, null)).block();
      McpSchema.JSONRPCMessage note = got.poll(5, TimeUnit.SECONDS);
      assertTrue(note instanceof McpSchema.JSONRPCNotification, "the event on the stream: " + note);
      McpSchema.JSONRPCMessage lost = got.poll(5, TimeUnit.SECONDS);
      assertTrue(
          lost instanceof McpSchema.JSONRPCResponse r
              && r.id().equals(2)
              && r.error() != null
              && r.error().code() == StreamableHttpTransport.LOST,
          "the request ends with the transport's own error: " + lost);
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "at once");
      for (String method : List.of("silent", "flood")) {
        long began = System.nanoTime();
        t.sendMessage(new McpSchema.JSONRPCRequest("2.0", method, method, null)).block();
        McpSchema.JSONRPCMessage failed = got.poll(10, TimeUnit.SECONDS);
        assertTrue(
            failed instanceof McpSchema.JSONRPCResponse r
                && r.id().equals(method)
                && r.error() != null
                && r.error().code() == StreamableHttpTransport.LOST,
            method + ": the request fails at once, not at its time limit: " + failed);
        assertTrue(System.nanoTime() - began < TimeUnit.SECONDS.toNanos(8), method);
      }
      assertEquals("null", sessions.get(0), "no session before the server gives one");
      assertEquals("s-1", sessions.get(1), "the server's session goes with the next request");
    } finally {
      t.close();
      server.stop(0);
    }
  }

  @Test
  void a_tool_calls_answer_lost_with_its_stream_fails_that_call_as_lost() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", x -> {
      x.getRequestBody().readAllBytes();
      if (x.getRequestMethod().equals("GET")) respond(x, 405, "text/plain", "");
      // A stream with no event id that ends before the answer; the server forges the transport's
      // own code, which must not pass for a lost answer.
      else
        respond(
            x,
            200,
            "text/event-stream",
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n"
                + "data: {\"jsonrpc\":\"2.0\",\"id\":\"steward-call-999\",\"error\":"
                + "{\"code\":" + StreamableHttpTransport.LOST + ",\"message\":\"m\"}}\n\n");
    });
    server.start();
    BlockingQueue<McpSchema.JSONRPCMessage> got = new LinkedBlockingQueue<>();
    StreamableHttpTransport http = plain(server);
    TrackedTransport t = new TrackedTransport(http, () -> {});
    try {
      t.connect(m -> m.doOnNext(got::add).then(Mono.empty())).block();
      var call = t.call("read", ServerLink.WIRE.createObjectNode(), "tok");
      var e = org.junit.jupiter.api.Assertions.assertThrows(
          java.util.concurrent.ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
      assertTrue(
          e.getCause() instanceof io.modelcontextprotocol.spec.McpError m
              && StreamableHttpTransport.lost(m),
          "the transport's own error: " + e.getCause());
      McpSchema.JSONRPCMessage note = got.poll(5, TimeUnit.SECONDS);
      assertTrue(note instanceof McpSchema.JSONRPCNotification, "the SDK hears the rest: " + note);
      assertEquals(0, t.waiting());
    } finally {
      t.close();
      server.stop(0);
    }
  }

  @Test
  void the_entrys_headers_go_with_each_request_and_a_sign_in_replaces_its_authorization()
      throws Exception {
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", x -> {
      x.getRequestBody().readAllBytes();
      seen.add(x.getRequestHeaders().getFirst("Authorization") + " | "
          + x.getRequestHeaders().getFirst("X-Key"));
      if (seen.size() == 3) {
        x.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"x\"");
        x.getResponseHeaders().add("WWW-Authenticate", "Bearer scope=\"more\"");
        respond(x, 401, "application/json", "{}");
        return;
      }
      respond(x, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    });
    server.start();
    java.util.concurrent.atomic.AtomicReference<String> token =
        new java.util.concurrent.atomic.AtomicReference<>();
    StreamableHttpTransport t = new StreamableHttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"),
        new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper()),
        java.time.Duration.ofSeconds(30),
        why -> {},
        () -> java.util.Optional.ofNullable(token.get()),
        java.util.Map.of("Authorization", "Basic dXNlcg==", "X-Key", "k-1"));
    try {
      t.connect(m -> m.then(Mono.empty())).block();
      t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "tools/list", 1, null)).block();
      token.set("signed-in");
      t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "tools/list", 1, null)).block();
      var refused = org.junit.jupiter.api.Assertions.assertThrows(
          AuthChallenge.class,
          () -> t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "tools/list", 1, null))
              .block());
      assertEquals(
          java.util.Set.of("more"), refused.scopes(), "the Bearer challenge, whichever header");
      assertEquals("Basic dXNlcg== | k-1", seen.get(0));
      assertEquals("Bearer signed-in | k-1", seen.get(1));
    } finally {
      t.close();
      server.stop(0);
    }
  }

  @Test
  void a_session_closed_after_sign_out_is_ended_with_the_token_it_was_opened_with()
      throws Exception {
    BlockingQueue<String> ends = new LinkedBlockingQueue<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/mcp", x -> {
      x.getRequestBody().readAllBytes();
      if (x.getRequestMethod().equals("DELETE")) {
        ends.add(String.valueOf(x.getRequestHeaders().getFirst("Authorization")) + " | "
            + x.getRequestHeaders().getFirst("Mcp-Session-Id"));
        x.sendResponseHeaders(200, -1);
        x.close();
        return;
      }
      x.getResponseHeaders().add("Mcp-Session-Id", "s-1");
      respond(x, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
    });
    server.start();
    java.util.concurrent.atomic.AtomicReference<String> token =
        new java.util.concurrent.atomic.AtomicReference<>("signed-in");
    StreamableHttpTransport t = new StreamableHttpTransport(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"),
        new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper()),
        java.time.Duration.ofSeconds(30),
        why -> {},
        () -> java.util.Optional.ofNullable(token.get()),
        java.util.Map.of());
    try {
      t.connect(m -> m.then(Mono.empty())).block();
      t.sendMessage(new McpSchema.JSONRPCRequest("2.0", "initialize", 1, null)).block();
      token.set(null); // signed out
      t.close();
      assertEquals("Bearer signed-in | s-1", ends.poll(5, TimeUnit.SECONDS));
    } finally {
      t.close();
      server.stop(0);
    }
  }

  private static void respond(HttpExchange x, int status, String type, String body)
      throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    if (!type.isEmpty()) x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
    if (b.length > 0) x.getResponseBody().write(b);
    x.close();
  }
}
