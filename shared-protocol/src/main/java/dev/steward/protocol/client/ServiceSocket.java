package dev.steward.protocol.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The client's end of one WebSocket connection to the service (RFC 6455) on a plain socket. A
 * frame is written on the sending thread, under a lock; one reader thread per connection reads the
 * service's frames and hands on each text message's pieces as they are decoded. Nothing passes
 * through an executor on the way: a call's latency is the service's, two socket wake-ups and no
 * more (see docs/decisions/0038).
 *
 * <p>Only what the service speaks: text messages, which may come in many frames; ping, pong and
 * close; no extensions, no subprotocol. The service's loopback address is the only peer, and the
 * handshake checks its {@code Sec-WebSocket-Accept}.
 */
final class ServiceSocket implements AutoCloseable {

  /** What the reader thread hands on. Called on that thread only, one call at a time. */
  interface Receiver {
    /** A piece of a text message; {@code last}: the message is whole. */
    void text(CharSequence piece, boolean last);

    /** The connection is gone (closed by either side, or broken); called once. */
    void closed(String why);
  }

  /** A handshake the service refused: its HTTP status. */
  static final class Refused extends IOException {
    final int status;

    Refused(int status) {
      super("HTTP " + status);
      this.status = status;
    }
  }

  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int TEXT = 0x1;
  private static final int CONTINUATION = 0x0;
  private static final int CLOSE = 0x8;
  private static final int PING = 0x9;
  private static final int PONG = 0xA;
  /** A text message is decoded and handed on in pieces of at most this many bytes. */
  private static final int PIECE = 64 * 1024;
  /** The longest handshake answer read (status line and headers). */
  private static final int MAX_HEAD = 16 * 1024;

  private static final SecureRandom MASKS = new SecureRandom();
  /** A pong's or a close's write, often on the reader's thread: short, so it never holds it up. */
  private static final long CONTROL_LIMIT_NANOS = 1_000_000_000L;

  private final Watchdog.Watched watched;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  /** Held while a frame is written; the reader thread never waits for it. */
  private final ReentrantLock writing = new ReentrantLock();

  private final long writeLimitNanos;
  /** A pong the reader could not send at once: the next writer sends it. */
  private volatile byte @Nullable [] pendingPong;

  private volatile boolean outputClosed;
  private volatile boolean inputClosed;

  private ServiceSocket(Watchdog.Watched watched, Duration writeLimit) throws IOException {
    this.watched = watched;
    this.socket = watched.socket;
    this.in = new BufferedInputStream(socket.getInputStream(), PIECE);
    this.out = socket.getOutputStream();
    this.writeLimitNanos = writeLimit.toNanos();
  }

  /**
   * Connects and upgrades, all within {@code timeout}; reading starts with {@link #start}. A frame
   * whose writing takes longer than {@code writeLimit} (the service stopped reading) closes the
   * connection.
   *
   * @throws Refused when the service answers the upgrade with another status than 101
   */
  static ServiceSocket open(
      URI uri, Map<String, String> headers, Duration timeout, Duration writeLimit)
      throws IOException {
    if (!"ws".equalsIgnoreCase(uri.getScheme()))
      throw new IOException("the service's address is not ws://: " + uri);
    Watchdog.Watched watched = Watchdog.watch(connect(uri, timeout), timeout);
    try {
      ServiceSocket ws = new ServiceSocket(watched, writeLimit);
      ws.handshake(uri, headers);
      watched.socket.setSoTimeout(0);
      watched.deadline = 0;
      return ws;
    } catch (IOException | RuntimeException e) {
      watched.close();
      if (watched.expired) throw new IOException("the service did not answer within " + timeout);
      throw e;
    }
  }

  /** Starts the reader thread, which hands the service's messages to {@code receiver}. */
  void start(Receiver receiver) {
    Thread reader = new Thread(() -> read(receiver), "steward-client-read");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * One plain HTTP/1.0 GET on a connection of its own (the service's answer ends with the
   * connection, so no framing of the body is needed); the body is read up to {@code maxBody}.
   *
   * @return the status and the body
   */
  static Map.Entry<Integer, String> get(URI address, Duration timeout, int maxBody)
      throws IOException {
    Watchdog.Watched watched = Watchdog.watch(connect(address, timeout), timeout);
    try {
      Socket socket = watched.socket;
      OutputStream out = socket.getOutputStream();
      String target =
          address.getRawPath() + (address.getRawQuery() == null ? "" : "?" + address.getRawQuery());
      out.write(("GET " + target + " HTTP/1.0\r\nHost: " + address.getRawAuthority()
              + "\r\nAccept: application/json\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      int status = status(in);
      headers(in);
      byte[] body = in.readNBytes(maxBody);
      return Map.entry(status, new String(body, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw watched.expired ? new IOException("the service did not answer within " + timeout) : e;
    } finally {
      watched.close();
    }
  }

  private static Socket connect(URI uri, Duration timeout) throws IOException {
    String host = uri.getHost();
    if (host == null) throw new IOException("the service's address has no host: " + uri);
    int port = uri.getPort();
    if (port < 0) port = 80;
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      socket.connect(new InetSocketAddress(host, port), millis);
      socket.setSoTimeout(millis);
      return socket;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  private void handshake(URI uri, Map<String, String> headers) throws IOException {
    byte[] nonce = new byte[16];
    MASKS.nextBytes(nonce);
    String key = Base64.getEncoder().encodeToString(nonce);
    StringBuilder request = new StringBuilder()
        .append("GET ")
        .append(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
        .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
        .append(" HTTP/1.1\r\nHost: ")
        .append(uri.getRawAuthority())
        .append("\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ")
        .append(key)
        .append("\r\nSec-WebSocket-Version: 13\r\n");
    headers.forEach((name, value) -> {
      if (name.indexOf('\r') >= 0
          || name.indexOf('\n') >= 0
          || value.indexOf('\r') >= 0
          || value.indexOf('\n') >= 0) throw new IllegalArgumentException("a header on two lines");
      request.append(name).append(": ").append(value).append("\r\n");
    });
    request.append("\r\n");
    out.write(request.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
    int status = status(in);
    Map<String, String> answer = headers(in);
    if (status != 101) throw new Refused(status);
    if (!"websocket".equalsIgnoreCase(answer.getOrDefault("upgrade", ""))
        || !accept(key).equals(answer.get("sec-websocket-accept")))
      throw new IOException("the service's answer to the upgrade is not a WebSocket's");
  }

  private static String accept(String key) {
    try {
      return Base64.getEncoder()
          .encodeToString(MessageDigest.getInstance("SHA-1")
              .digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }

  private static int status(InputStream in) throws IOException {
    String line = line(in);
    String[] parts = line.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/"))
      throw new IOException("not an HTTP answer: " + line);
    try {
      return Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("not an HTTP answer: " + line, e);
    }
  }

  /** The header lines up to the blank one, names in lower case. */
  private static Map<String, String> headers(InputStream in) throws IOException {
    Map<String, String> headers = new java.util.HashMap<>();
    int read = 0;
    for (String line = line(in); !line.isEmpty(); line = line(in)) {
      read += line.length();
      if (read > MAX_HEAD) throw new IOException("the service's answer has too long a head");
      int colon = line.indexOf(':');
      if (colon > 0)
        headers.put(
            line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
    }
    return headers;
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int read = 0;
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) throw new EOFException("the service closed the connection in its answer's head");
      if (++read > MAX_HEAD) throw new IOException("the service's answer has too long a line");
      if (b != '\r') line.write(b);
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  // ---- sending ----------------------------------------------------------------------------

  /** Sends one text message as one frame. */
  void sendText(String text) throws IOException {
    send(TEXT, text.getBytes(StandardCharsets.UTF_8));
  }

  private void send(int opcode, byte[] payload) throws IOException {
    byte[][] frame = frame(opcode, payload);
    writing.lock();
    try {
      write(frame, writeLimitNanos);
    } finally {
      writing.unlock();
    }
    // A pong the reader left while this frame was being written goes now, unless a writer after
    // this one has the lock (it sends it then).
    flushPong();
  }

  /** A frame's head and its masked payload (a short one in one piece, a long one not copied). */
  private static byte[][] frame(int opcode, byte[] payload) {
    int length = payload.length;
    byte[] head = new byte[14];
    int at = 0;
    head[at++] = (byte) (0x80 | opcode);
    if (length < 126) {
      head[at++] = (byte) (0x80 | length);
    } else if (length < 65536) {
      head[at++] = (byte) (0x80 | 126);
      head[at++] = (byte) (length >>> 8);
      head[at++] = (byte) length;
    } else {
      head[at++] = (byte) (0x80 | 127);
      for (int shift = 56; shift >= 0; shift -= 8) head[at++] = (byte) ((long) length >>> shift);
    }
    byte[] mask = new byte[4];
    MASKS.nextBytes(mask);
    System.arraycopy(mask, 0, head, at, 4);
    at += 4;
    for (int i = 0; i < length; i++) payload[i] ^= mask[i & 3];
    if (length <= 8 * 1024) {
      byte[] whole = java.util.Arrays.copyOf(head, at + length);
      System.arraycopy(payload, 0, whole, at, length);
      return new byte[][] {whole};
    }
    return new byte[][] {java.util.Arrays.copyOf(head, at), payload};
  }

  /** Writes a frame; the lock is held. A write that fails or runs out of time ends the connection. */
  private void write(byte[][] frame, long limitNanos) throws IOException {
    if (outputClosed) throw new IOException("the connection to the service is closed");
    watched.deadline = System.nanoTime() + limitNanos;
    try {
      for (byte[] part : frame) out.write(part);
      out.flush();
    } catch (IOException e) {
      abort();
      throw watched.expired
          ? new IOException("the service took no message for " + limitNanos / 1_000_000_000
              + " s; the connection is closed")
          : e;
    } finally {
      watched.deadline = 0;
    }
  }

  private void sendPendingPong() throws IOException {
    byte[] pong = pendingPong;
    if (pong == null) return;
    pendingPong = null;
    write(frame(PONG, pong), CONTROL_LIMIT_NANOS);
  }

  /** The reader's answer to a ping: sent now if no frame is being written, else by its writer. */
  private void pong(byte[] payload) throws IOException {
    pendingPong = payload;
    flushPong();
  }

  /**
   * Sends a pending pong unless a frame is being written: its writer looks again once it has let
   * go of the lock, so a pong set meanwhile is never left behind.
   */
  private void flushPong() throws IOException {
    if (pendingPong == null || !writing.tryLock()) return;
    try {
      sendPendingPong();
    } finally {
      writing.unlock();
    }
  }

  boolean isOpen() {
    return !outputClosed && !inputClosed;
  }

  /** Says goodbye (a close frame, unless a frame is stuck being written) and closes at once. */
  @Override
  public void close() {
    sendClose(new byte[] {(byte) (1000 >>> 8), (byte) (1000 & 0xff)});
    abort();
  }

  private void sendClose(byte[] payload) {
    try {
      if (!writing.tryLock(1, TimeUnit.SECONDS)) return;
      try {
        write(frame(CLOSE, payload), CONTROL_LIMIT_NANOS);
        outputClosed = true;
      } finally {
        writing.unlock();
      }
    } catch (IOException e) {
      // closing anyway
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes the connection at once. */
  void abort() {
    outputClosed = true;
    watched.close();
  }

  /**
   * Closes a socket whose exchange runs past its deadline: a blocking read or write has no time
   * limit of its own (SO_TIMEOUT bounds one read, not a trickle of them). One thread for all,
   * looking twice a second; setting a deadline is a volatile write, so a frame costs nothing more.
   */
  static final class Watchdog {
    private static final java.util.Set<Watched> WATCHED =
        java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static boolean started;

    private Watchdog() {}

    static final class Watched {
      final Socket socket;
      /** System.nanoTime() past which the socket is closed; 0: no deadline now. */
      volatile long deadline;

      volatile boolean expired;

      private Watched(Socket socket) {
        this.socket = socket;
      }

      void close() {
        WATCHED.remove(this);
        try {
          socket.close();
        } catch (IOException e) {
          // closed either way
        }
      }
    }

    /** Watches {@code socket}, with a first deadline {@code within} from now. */
    static Watched watch(Socket socket, Duration within) {
      Watched w = new Watched(socket);
      w.deadline = System.nanoTime() + within.toNanos();
      WATCHED.add(w);
      synchronized (Watchdog.class) {
        if (!started) {
          Thread t = new Thread(Watchdog::run, "steward-client-watchdog");
          t.setDaemon(true);
          t.start();
          started = true;
        }
      }
      return w;
    }

    private static void run() {
      while (true) {
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          return;
        }
        long now = System.nanoTime();
        for (Watched w : WATCHED) {
          long d = w.deadline;
          if (d != 0 && now - d > 0) {
            w.expired = true;
            w.close();
          }
        }
      }
    }
  }

  // ---- receiving --------------------------------------------------------------------------

  private void read(Receiver receiver) {
    String why = "1006 the connection to the service broke";
    try {
      why = readFrames(receiver);
    } catch (CharacterCodingException e) {
      why = "1007 the service sent text that is not UTF-8";
    } catch (IOException e) {
      if (!outputClosed) why = "1006 " + e.getMessage();
    } finally {
      inputClosed = true;
      abort();
      receiver.closed(why);
    }
  }

  /** Reads until the service closes; returns its close code and reason. */
  private String readFrames(Receiver receiver) throws IOException {
    CharsetDecoder utf8 = StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer bytes = ByteBuffer.allocate(PIECE + 8);
    CharBuffer chars = CharBuffer.allocate(PIECE + 8);
    boolean inMessage = false;
    while (true) {
      int b0 = in.read();
      if (b0 < 0) return "1006 the service closed the connection";
      int b1 = readByte();
      if ((b0 & 0x70) != 0) throw new IOException("a frame with reserved bits from the service");
      if ((b1 & 0x80) != 0) throw new IOException("a masked frame from the service");
      boolean fin = (b0 & 0x80) != 0;
      int opcode = b0 & 0x0f;
      long length = b1 & 0x7f;
      if (length == 126) {
        length = ((long) readByte() << 8) | readByte();
      } else if (length == 127) {
        length = 0;
        for (int i = 0; i < 8; i++) length = (length << 8) | readByte();
        if (length < 0) throw new IOException("a frame longer than any from the service");
      }
      if (opcode >= 0x8) {
        if (!fin || length > 125) throw new IOException("a broken control frame from the service");
        byte[] payload = in.readNBytes((int) length);
        if (payload.length < length) throw new EOFException("the connection ended in a frame");
        if (opcode == PING) {
          pong(payload);
        } else if (opcode == CLOSE) {
          int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
          String reason = payload.length > 2
              ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8)
              : "";
          sendClose(payload.length >= 2 ? new byte[] {payload[0], payload[1]} : new byte[0]);
          return code + " " + reason;
        } else if (opcode != PONG) {
          throw new IOException("an unknown control frame from the service");
        }
        continue;
      }
      if (opcode == TEXT && inMessage || opcode == CONTINUATION && !inMessage || opcode > TEXT)
        throw new IOException("a frame out of order from the service (opcode " + opcode + ")");
      if (opcode == TEXT) utf8.reset();
      inMessage = !fin;
      long left = length;
      do {
        int n = (int) Math.min(left, bytes.remaining());
        int got = in.readNBytes(bytes.array(), bytes.position(), n);
        if (got < n) throw new EOFException("the connection ended in a frame");
        bytes.position(bytes.position() + n);
        left -= n;
        boolean last = fin && left == 0;
        bytes.flip();
        CoderResult result = utf8.decode(bytes, chars, last);
        if (result.isError()) result.throwException();
        if (last) {
          result = utf8.flush(chars);
          if (result.isError()) result.throwException();
        }
        bytes.compact();
        if (chars.position() > 0 || last) {
          chars.flip();
          receiver.text(chars, last);
          chars.clear();
        }
      } while (left > 0);
    }
  }

  private int readByte() throws IOException {
    int b = in.read();
    if (b < 0) throw new EOFException("the connection ended in a frame");
    return b;
  }
}
