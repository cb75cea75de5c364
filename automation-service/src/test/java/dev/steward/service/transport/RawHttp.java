package dev.steward.service.transport;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Handshakes written by hand, to see the status the server answers before any upgrade. */
final class RawHttp {

  private RawHttp() {}

  /** Sends {@code request} to the loopback port and answers the status code of the reply. */
  static int status(int port, String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\n') line.append((char) c);
      return Integer.parseInt(line.toString().split(" ")[1]);
    }
  }

  /** Sends {@code request} (which asks to close the connection) and answers the whole reply. */
  static String exchange(int port, String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A WebSocket upgrade request for {@code /rpc}, with the given Host (none when null) and headers. */
  static String upgrade(String host, String extraHeaders) {
    return "GET /rpc HTTP/1.1\r\n"
        + (host == null ? "" : "Host: " + host + "\r\n")
        + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + extraHeaders
        + "\r\n";
  }
}
