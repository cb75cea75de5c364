package dev.steward.service.scope;

import dev.steward.protocol.util.DaemonThreads;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The only way out for the browser and for {@code web.fetch}: a proxy on loopback that every
 * connection of every visit (or fetch) goes through — pages, frames, scripts, redirects Chromium follows on its own, WebSockets — whatever
 * the method. It asks the current visit's guard for the address of each host (looked up once per
 * visit, checked against the host scope, then pinned) and connects to exactly that address, so a
 * name cannot resolve to one address for the check and another for the connection (DNS
 * rebinding). Chromium itself resolves nothing (its resolver is told to find no host but this
 * proxy). Between visits every connection is refused.
 *
 * <p>A plain-HTTP connection carries one request: the proxy forwards that request and its body,
 * asks the server to close after its answer, and never forwards a second request on the same
 * connection (it could be for another host). HTTPS and WebSockets are tunnelled (CONNECT) to the
 * pinned address.
 */
public final class PinningProxy implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(PinningProxy.class.getName());
  private static final int MAX_HEAD = 64 * 1024;
  private static final int IDLE_MILLIS = 120_000;

  /** What a visit answers for a host: the one address to connect to, or why not. */
  public interface Pins {
    InetAddress pin(String host) throws ScopeDenied;

    void refused(String what);
  }

  private final ServerSocket server;
  private final Supplier<@Nullable Pins> current;
  private final ExecutorService threads;
  /** Client and upstream sockets, so {@link #close} can end the threads that pump them. */
  private final java.util.Set<Socket> open =
      java.util.Collections.newSetFromMap(new java.util.concurrent.ConcurrentHashMap<>());

  private PinningProxy(ServerSocket server, Supplier<@Nullable Pins> current) {
    this.server = server;
    this.current = current;
    this.threads = Executors.newCachedThreadPool(DaemonThreads.named("browser-proxy"));
  }

  public static PinningProxy start(Supplier<@Nullable Pins> current) throws IOException {
    ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    PinningProxy proxy = new PinningProxy(s, current);
    proxy.threads.execute(proxy::acceptLoop);
    return proxy;
  }

  public int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> serve(client));
      } catch (IOException e) {
        if (!server.isClosed()) LOG.log(Level.FINE, "browser proxy: accept failed", e);
      }
    }
  }

  private void serve(Socket client) {
    open.add(client);
    try (client) {
      client.setSoTimeout(IDLE_MILLIS);
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      String head = readHead(in);
      if (head == null) return;
      String[] lines = head.split("\r\n");
      String[] first = lines[0].split(" ");
      if (first.length != 3) {
        answer(out, 400, "a request line of three parts");
        return;
      }
      String method = first[0];
      String host;
      int port;
      String path = "/";
      if (method.equals("CONNECT")) {
        int colon = first[1].lastIndexOf(':');
        if (colon < 0) {
          answer(out, 400, "CONNECT needs host:port");
          return;
        }
        host = unbracket(first[1].substring(0, colon));
        port = Integer.parseInt(first[1].substring(colon + 1));
      } else {
        URI target = URI.create(first[1]);
        if (!"http".equalsIgnoreCase(target.getScheme()) || target.getHost() == null) {
          answer(out, 400, "only http:// targets and CONNECT");
          return;
        }
        host = unbracket(target.getHost());
        port = target.getPort() < 0 ? 80 : target.getPort();
        path = (target.getRawPath() == null || target.getRawPath().isEmpty()
                ? "/"
                : target.getRawPath())
            + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
      }
      Pins pins = current.get();
      if (pins == null) {
        answer(out, 403, "no visit is in progress");
        return;
      }
      InetAddress address;
      try {
        address = pins.pin(host.toLowerCase(Locale.ROOT));
      } catch (ScopeDenied.NotFound e) {
        answer(out, 502, e.getMessage());
        return;
      } catch (ScopeDenied e) {
        pins.refused(
            (method.equals("CONNECT") ? host + ":" + port : first[1]) + " — " + e.getMessage());
        answer(out, 403, e.getMessage());
        return;
      }
      try (Socket upstream = new Socket()) {
        open.add(upstream);
        upstream.connect(new InetSocketAddress(address, port), 15_000);
        upstream.setSoTimeout(IDLE_MILLIS);
        if (method.equals("CONNECT")) {
          out.write(
              "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          threads.execute(() -> pump(upstream, client));
          pump(in, upstream);
        } else {
          forwardOne(lines, method, path, in, upstream.getOutputStream());
          pump(upstream, client);
        }
      } catch (IOException e) {
        answerQuietly(out, 502, "cannot reach " + host + ":" + port);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "browser proxy: a connection ended", e);
    } finally {
      open.remove(client);
      open.removeIf(Socket::isClosed);
    }
  }

  /** The request line in origin form, the headers but the proxy's own, "close", then exactly the body. */
  private static void forwardOne(
      String[] lines, String method, String path, InputStream in, OutputStream up)
      throws IOException {
    StringBuilder h = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    long length = 0;
    boolean chunked = false;
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      int colon = line.indexOf(':');
      if (colon <= 0) continue;
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).trim();
      if (name.startsWith("proxy-") || name.equals("connection") || name.equals("keep-alive"))
        continue;
      if (name.equals("content-length")) length = Long.parseLong(value);
      if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked"))
        chunked = true;
      h.append(line).append("\r\n");
    }
    h.append("Connection: close\r\n\r\n");
    up.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (chunked) copyChunked(in, up);
    else copy(in, up, length);
    up.flush();
  }

  private static void copy(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buf = new byte[16 * 1024];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) throw new IOException("the request body ended early");
      out.write(buf, 0, r);
      n -= r;
    }
  }

  /** Copies a chunked body up to and including its last chunk and trailer. */
  private static void copyChunked(InputStream in, OutputStream out) throws IOException {
    while (true) {
      String sizeLine = readLine(in);
      out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      int semi = sizeLine.indexOf(';');
      long size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
      if (size == 0) {
        for (String t = readLine(in); ; t = readLine(in)) {
          out.write((t + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
          if (t.isEmpty()) return;
        }
      }
      copy(in, out, size + 2);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); ; c = in.read()) {
      if (c < 0) throw new IOException("the request ended in a line");
      if (c == '\n') break;
      if (c != '\r') b.write(c);
      if (b.size() > MAX_HEAD) throw new IOException("a line too long");
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  private static @Nullable String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int c = in.read();
      if (c < 0) return null;
      b.write(c);
      matched = (c == '\r' && (matched == 0 || matched == 2))
              || (c == '\n' && (matched == 1 || matched == 3))
          ? matched + 1
          : c == '\r' ? 1 : 0;
      if (b.size() > MAX_HEAD) throw new IOException("a request head over " + MAX_HEAD + " bytes");
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  private void pump(Socket from, Socket to) {
    try {
      pump(from.getInputStream(), to);
    } catch (IOException e) {
      // the other side closed
    }
  }

  private static void pump(InputStream from, Socket to) {
    byte[] buf = new byte[32 * 1024];
    try {
      OutputStream out = to.getOutputStream();
      for (int r; (r = from.read(buf)) >= 0; ) {
        out.write(buf, 0, r);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed: the other is closed below
    }
    try {
      to.shutdownOutput();
    } catch (IOException e) {
      // already closed
    }
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static void answer(OutputStream out, int status, String why) throws IOException {
    byte[] body = why.getBytes(StandardCharsets.UTF_8);
    out.write(("HTTP/1.1 " + status
            + " Steward\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
            + body.length + "\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    out.write(body);
    out.flush();
  }

  private static void answerQuietly(OutputStream out, int status, String why) {
    try {
      answer(out, status, why);
    } catch (IOException e) {
      // the browser went away
    }
  }

  /**
   * Stops accepting and closes every connection still open: a thread blocked in a socket read
   * does not heed an interrupt, so closing its socket is what ends it.
   */
  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    threads.shutdownNow();
  }
}
