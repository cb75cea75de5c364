package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steward.protocol.method.Role;
import dev.steward.service.config.Secrets;
import dev.steward.service.config.StewardHome;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server listens while the service is still building its gate: until then it upgrades nobody. */
class StartingIT {

  @TempDir Path tmp;

  private static int status(int port, String secret) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /rpc HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer " + secret + "\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\n') line.append((char) c);
      return Integer.parseInt(line.toString().split(" ")[1]);
    }
  }

  @Test
  void handshakes_are_503_until_the_dispatcher_is_ready_then_upgrade() throws Exception {
    StewardHome home = StewardHome.under(tmp.resolve("home"), tmp);
    home.create();
    Secrets secrets = Secrets.loadOrCreate(home);
    CompletableFuture<Dispatcher> dispatcher = new CompletableFuture<>();
    try (RpcServer server = RpcServer.start(0, new HandshakeGuard(secrets), dispatcher, Limits.defaults())) {
      assertEquals(503, status(server.port(), secrets.secret(Role.UI)));
      dispatcher.complete(new Dispatcher((session, error) -> {}));
      assertEquals(101, status(server.port(), secrets.secret(Role.UI)));
      assertEquals(401, status(server.port(), "x".repeat(43)), "the secret is still checked first");
    }
  }
}
