package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.method.Role;
import dev.steward.service.config.Secrets;
import dev.steward.service.config.StewardHome;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server listens while the service is still building its gate: until then it upgrades nobody. */
class StartingIT {

  @TempDir
  Path tmp;

  private static int status(int port, String secret) throws Exception {
    return RawHttp.status(
        port, RawHttp.upgrade("127.0.0.1:" + port, "Authorization: Bearer " + secret + "\r\n"));
  }

  @Test
  void handshakes_are_503_until_the_dispatcher_is_ready_then_upgrade() throws Exception {
    StewardHome home = StewardHome.under(tmp.resolve("home"), tmp);
    home.create();
    Secrets secrets = Secrets.loadOrCreate(home);
    CompletableFuture<Dispatcher> dispatcher = new CompletableFuture<>();
    try (RpcServer server = RpcServer.start(
        0,
        new HandshakeGuard(secrets),
        dispatcher,
        Limits.defaults(),
        new dev.steward.service.tools.BrowserReturns())) {
      assertEquals(503, status(server.port(), secrets.secret(Role.UI)));
      dispatcher.complete(new Dispatcher((session, error) -> {}));
      assertEquals(101, status(server.port(), secrets.secret(Role.UI)));
      assertEquals(401, status(server.port(), "x".repeat(43)), "the secret is still checked first");
    }
  }

  @Test
  void a_fixed_port_that_another_program_holds_on_the_ipv6_loopback_stops_the_start()
      throws Exception {
    StewardHome home = StewardHome.under(tmp.resolve("home"), tmp);
    home.create();
    Secrets secrets = Secrets.loadOrCreate(home);
    try (java.net.ServerSocket squatter = new java.net.ServerSocket()) {
      squatter.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName("::1"), 0));
      int port = squatter.getLocalPort();
      Exception refused = assertThrows(
          java.io.IOException.class,
          () -> RpcServer.start(
              port,
              new HandshakeGuard(secrets),
              new CompletableFuture<>(),
              Limits.defaults(),
              new dev.steward.service.tools.BrowserReturns()));
      assertTrue(refused.getMessage().contains("[::1]:" + port), refused.getMessage());
      // the IPv4 half it had bound is free again
      try (java.net.ServerSocket again = new java.net.ServerSocket()) {
        again.bind(
            new java.net.InetSocketAddress(java.net.InetAddress.getByName("127.0.0.1"), port));
      }
    }
  }
}
