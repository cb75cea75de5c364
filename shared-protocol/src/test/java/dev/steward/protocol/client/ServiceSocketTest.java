package dev.steward.protocol.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's WebSocket against a small server on loopback that writes RFC 6455 frames by hand:
 * what the service's Jetty may send (a message in many frames, a character split between two, a
 * ping, a close) is read as the RFC says, and what the client sends is masked as it must be.
 */
class ServiceSocketTest {

  private final ServerSocket server = serverSocket();
  private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
  private final CompletableFuture<String> closed = new CompletableFuture<>();
  private final java.util.concurrent.atomic.AtomicInteger closings =
      new java.util.concurrent.atomic.AtomicInteger();
  private final ServiceSocket.Receiver receiver = new ServiceSocket.Receiver() {
    private final StringBuilder message = new StringBuilder();
    private int pieces;

    @Override
    public void text(CharSequence piece, boolean last) {
      message.append(piece);
      pieces++;
      if (last) {
        messages.add(pieces + ":" + message);
        message.setLength(0);
        pieces = 0;
      }
    }

    @Override
    public void closed(String why) {
      closings.incrementAndGet();
      closed.complete(why);
    }
  };

  private static ServerSocket serverSocket() {
    try {
      return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  /** Connects and starts reading, the way the client does. */
  private ServiceSocket open(Map<String, String> headers) throws IOException {
    ServiceSocket ws =
        ServiceSocket.open(uri(), headers, Duration.ofSeconds(5), Duration.ofSeconds(1));
    ws.start(receiver);
    return ws;
  }

  private URI uri() {
    return URI.create("ws://127.0.0.1:" + server.getLocalPort() + "/rpc");
  }

  /** The server's end once it has answered the upgrade with {@code status} (and a right accept). */
  private CompletableFuture<Peer> accept(int status, boolean rightAccept) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        Socket s = server.accept();
        Peer peer = new Peer(s);
        Map<String, String> head = peer.head();
        peer.request = head;
        String key = head.get("sec-websocket-key");
        String accept = Base64.getEncoder()
            .encodeToString(MessageDigest.getInstance("SHA-1")
                .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
                    .getBytes(StandardCharsets.US_ASCII)));
        String answer = status == 101
            ? "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + (rightAccept ? accept : "x" + accept) + "\r\n\r\n"
            : "HTTP/1.1 " + status + " No\r\nContent-Length: 0\r\n\r\n";
        peer.out.write(answer.getBytes(StandardCharsets.US_ASCII));
        peer.out.flush();
        return peer;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void handshakeSendsTheHeadersAndChecksTheAnswer() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    try (ServiceSocket ws = open(Map.of("Authorization", "Bearer s3cret"))) {
      Peer p = peer.get(5, TimeUnit.SECONDS);
      assertEquals("Bearer s3cret", p.request.get("authorization"));
      assertEquals("websocket", p.request.get("upgrade"));
      assertEquals("13", p.request.get("sec-websocket-version"));
      assertEquals("GET /rpc HTTP/1.1", p.request.get(""));
      assertTrue(ws.isOpen());
    }
  }

  @Test
  void aRefusedUpgradeGivesItsStatus() {
    accept(401, true);
    ServiceSocket.Refused refused = assertThrows(ServiceSocket.Refused.class, () -> open(Map.of()));
    assertEquals(401, refused.status);
  }

  @Test
  void anAnswerWithTheWrongAcceptIsNotAWebSocket() {
    accept(101, false);
    IOException e = assertThrows(IOException.class, () -> open(Map.of()));
    assertFalse(e instanceof ServiceSocket.Refused);
  }

  @Test
  void aHeaderOnTwoLinesIsNeverSent() {
    accept(101, true);
    assertThrows(
        IllegalArgumentException.class, () -> open(Map.of("Authorization", "x\r\nX-Evil: 1")));
  }

  @Test
  void framesAreReadAsTheRfcSays() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    try (ServiceSocket ws = open(Map.of())) {
      Peer p = peer.get(5, TimeUnit.SECONDS);
      // One message in three frames, "é" split between the first two, a ping between them.
      byte[] text = "{\"a\":\"é😀\"}".getBytes(StandardCharsets.UTF_8);
      int split = "{\"a\":\"".length() + 1; // inside é's two bytes
      p.frame(false, 0x1, slice(text, 0, split));
      p.frame(true, 0x9, "are you there".getBytes(StandardCharsets.US_ASCII));
      p.frame(false, 0x0, slice(text, split, text.length - 2));
      p.frame(true, 0x0, slice(text, text.length - 2, text.length));
      assertEquals("{\"a\":\"é😀\"}", messages.poll(5, TimeUnit.SECONDS).substring(2));
      Peer.Frame pong = p.read();
      assertEquals(0xA, pong.opcode);
      assertArrayEquals("are you there".getBytes(StandardCharsets.US_ASCII), pong.payload);
      // A long frame (a 64-bit length) is handed on in pieces while it arrives.
      String big = "x".repeat(300_000);
      p.frame(true, 0x1, big.getBytes(StandardCharsets.UTF_8));
      String got = messages.poll(5, TimeUnit.SECONDS);
      assertTrue(Integer.parseInt(got.substring(0, got.indexOf(':'))) > 1, got.length() + "");
      assertEquals(big, got.substring(got.indexOf(':') + 1));
      // What the client sends is one masked frame per message.
      ws.sendText("héllo");
      Peer.Frame sent = p.read();
      assertEquals(0x1, sent.opcode);
      assertTrue(sent.fin && sent.masked);
      assertEquals("héllo", new String(sent.payload, StandardCharsets.UTF_8));
      ws.sendText("x".repeat(70_000));
      assertEquals(70_000, p.read().payload.length);
      // The service closes: the client answers with the same code and reports it.
      p.frame(true, 0x8, new byte[] {0x03, (byte) 0xE9, 'b', 'y', 'e'});
      assertEquals("1001 bye", closed.get(5, TimeUnit.SECONDS));
      Peer.Frame echo = p.read();
      assertEquals(0x8, echo.opcode);
      assertArrayEquals(new byte[] {0x03, (byte) 0xE9}, echo.payload);
      assertFalse(ws.isOpen());
      assertThrows(IOException.class, () -> ws.sendText("after"));
    }
  }

  @Test
  void brokenFramesEndTheConnection() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    try (ServiceSocket ws = open(Map.of())) {
      Peer p = peer.get(5, TimeUnit.SECONDS);
      p.frame(true, 0x1, new byte[] {(byte) 0xC3, (byte) 0x28}); // not UTF-8
      String why = closed.get(5, TimeUnit.SECONDS);
      assertTrue(why.startsWith("1007"), why);
      assertFalse(ws.isOpen());
    }
  }

  @Test
  void aContinuationWithoutAStartEndsTheConnection() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    try (ServiceSocket ws = open(Map.of())) {
      Peer p = peer.get(5, TimeUnit.SECONDS);
      p.frame(true, 0x0, "x".getBytes(StandardCharsets.US_ASCII));
      String why = closed.get(5, TimeUnit.SECONDS);
      assertTrue(why.startsWith("1006"), why);
      assertTrue(messages.isEmpty());
    }
  }

  @Test
  void theServiceGoingAwayIsReportedOnce() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    try (ServiceSocket ws = open(Map.of())) {
      peer.get(5, TimeUnit.SECONDS).socket.close();
      assertTrue(closed.get(5, TimeUnit.SECONDS).startsWith("1006"));
      assertFalse(ws.isOpen());
    }
    Thread.sleep(200); // a second report would come from closing it here, or from the reader
    assertEquals(1, closings.get());
  }

  @Test
  void aPlainGetReadsStatusAndBody() throws Exception {
    CompletableFuture<Map<String, String>> request = CompletableFuture.supplyAsync(() -> {
      try (Socket s = server.accept()) {
        Peer p = new Peer(s);
        Map<String, String> head = p.head();
        p.out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"ok\":1}"
            .getBytes(StandardCharsets.US_ASCII));
        p.out.flush();
        return head;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    Map.Entry<Integer, String> answer = ServiceSocket.get(
        URI.create("http://127.0.0.1:" + server.getLocalPort() + "/proof?nonce=ab"),
        Duration.ofSeconds(5),
        4);
    assertEquals(200, answer.getKey());
    assertEquals("{\"ok", answer.getValue()); // read no further than asked
    assertEquals(
        "GET /proof?nonce=ab HTTP/1.0", request.get(5, TimeUnit.SECONDS).get(""));
  }

  @Test
  void aServiceThatStopsReadingClosesTheConnectionAfterTheWriteLimit() throws Exception {
    CompletableFuture<Peer> peer = accept(101, true);
    ServiceSocket ws = open(Map.of());
    Peer p = peer.get(5, TimeUnit.SECONDS); // it reads nothing from here on
    long t0 = System.nanoTime();
    IOException stuck = assertThrows(IOException.class, () -> {
      for (int i = 0; i < 1000; i++) ws.sendText("x".repeat(1 << 20));
    });
    long took = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(took < 4000, "gave up after " + took + " ms: " + stuck);
    assertTrue(stuck.getMessage().contains("took no message"), stuck.getMessage());
    assertFalse(ws.isOpen());
    long c0 = System.nanoTime();
    ws.close();
    assertTrue((System.nanoTime() - c0) / 1_000_000 < 1500, "close waits no longer than a second");
    p.socket.close();
  }

  @Test
  void anAnswerThatNeverEndsFailsWithinTheTimeout() throws Exception {
    CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
      try (Socket s = server.accept()) {
        new Peer(s).head();
        OutputStream out = s.getOutputStream();
        out.write("HTTP/1.1 101 Switching Protocols\r\n".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 200; i++) {
          out.write('\r'); // carriage returns only: a line that never ends
          out.flush();
          Thread.sleep(50);
        }
      } catch (Exception e) {
        // the client gave up
      }
    });
    long t0 = System.nanoTime();
    IOException e = assertThrows(
        IOException.class,
        () -> ServiceSocket.open(uri(), Map.of(), Duration.ofSeconds(1), Duration.ofSeconds(1)));
    long took = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(took < 3000, "gave up after " + took + " ms");
    assertTrue(e.getMessage().contains("did not answer within"), e.getMessage());
    trickle.cancel(true);
  }

  private static byte[] slice(byte[] bytes, int from, int to) {
    return java.util.Arrays.copyOfRange(bytes, from, to);
  }

  /** The server's end of one connection. */
  private static final class Peer {
    final Socket socket;
    final DataInputStream in;
    final OutputStream out;
    Map<String, String> request = Map.of();

    record Frame(boolean fin, int opcode, boolean masked, byte[] payload) {}

    Peer(Socket socket) throws IOException {
      this.socket = socket;
      this.in = new DataInputStream(socket.getInputStream());
      this.out = socket.getOutputStream();
    }

    /** The request's head: its line under "", its headers by lower-case name. */
    Map<String, String> head() throws IOException {
      Map<String, String> head = new HashMap<>();
      head.put("", line(in));
      for (String l = line(in); !l.isEmpty(); l = line(in)) {
        int colon = l.indexOf(':');
        head.put(
            l.substring(0, colon).toLowerCase(Locale.ROOT),
            l.substring(colon + 1).trim());
      }
      return head;
    }

    private static String line(InputStream in) throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      for (int c = in.read(); c != '\n'; c = in.read()) if (c != '\r') b.write(c);
      return b.toString(StandardCharsets.UTF_8);
    }

    void frame(boolean fin, int opcode, byte[] payload) throws IOException {
      ByteArrayOutputStream f = new ByteArrayOutputStream();
      f.write((fin ? 0x80 : 0) | opcode);
      if (payload.length < 126) {
        f.write(payload.length);
      } else if (payload.length < 65536) {
        f.write(126);
        f.write(payload.length >>> 8);
        f.write(payload.length & 0xff);
      } else {
        f.write(127);
        for (int shift = 56; shift >= 0; shift -= 8)
          f.write((int) ((long) payload.length >>> shift));
      }
      f.write(payload);
      out.write(f.toByteArray());
      out.flush();
    }

    Frame read() throws IOException {
      int b0 = in.readUnsignedByte();
      int b1 = in.readUnsignedByte();
      long length = b1 & 0x7f;
      if (length == 126) length = in.readUnsignedShort();
      else if (length == 127) length = in.readLong();
      byte[] mask = new byte[4];
      boolean masked = (b1 & 0x80) != 0;
      if (masked) in.readFully(mask);
      byte[] payload = new byte[(int) length];
      in.readFully(payload);
      for (int i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
      return new Frame((b0 & 0x80) != 0, b0 & 0x0f, masked, payload);
    }
  }
}
