package dev.steward.service.transport;

import dev.steward.protocol.client.ServiceProof;
import dev.steward.protocol.method.Role;
import dev.steward.service.config.Secrets;
import java.util.Optional;
import java.util.Set;

/**
 * The checks every handshake passes before the upgrade (SPEC §4): a loopback {@code Host} with our
 * port (DNS rebinding), no other page's {@code Origin} (cross-site WebSocket hijacking), the path, and
 * a secret that names a role. The first failure decides the status.
 */
public final class HandshakeGuard {

  /** The verdict: a role, or an HTTP status and a reason. */
  public record Verdict(Optional<Role> role, int status, String reason) {
    static Verdict refuse(int status, String reason) {
      return new Verdict(Optional.empty(), status, reason);
    }
  }

  private final Secrets secrets;
  private volatile Set<String> hosts = Set.of();
  private volatile Set<String> origins = Set.of();
  private volatile int port;

  public HandshakeGuard(Secrets secrets) {
    this.secrets = secrets;
  }

  /** This installation's secret for {@code role}: the service's own MCP endpoint connects with it. */
  String secret(Role role) {
    return secrets.secret(role);
  }

  /** Called once the port is known. */
  public void bindPort(int port) {
    this.port = port;
    hosts = Set.of("127.0.0.1:" + port, "[::1]:" + port, "localhost:" + port);
    origins =
        Set.of("http://127.0.0.1:" + port, "http://[::1]:" + port, "http://localhost:" + port);
  }

  /**
   * No Origin (a program), or the service's own (MCP's DNS-rebinding rule accepts a loopback
   * origin; no page is ever served from this one, so no script can speak from it). Any other
   * page's — another site's, another local port's, a sandboxed frame's "null" — is refused.
   */
  private boolean originAllowed(@org.jspecify.annotations.Nullable String origin) {
    return origin == null || origins.contains(origin.toLowerCase(java.util.Locale.ROOT));
  }

  /** Whether a request's Host is this service's loopback address and port. */
  public boolean ownHost(@org.jspecify.annotations.Nullable String host) {
    return host != null && hosts.contains(host.toLowerCase(java.util.Locale.ROOT));
  }

  /**
   * The answer to {@code GET /rpc/hello?nonce=…} (no secret needed): the service's proof, under
   * each role's secret, that it holds them — or, for a request that fails the Host and Origin
   * checks or brings no proper nonce, a refusal.
   */
  public Verdict hello(
      String host,
      @org.jspecify.annotations.Nullable String origin,
      @org.jspecify.annotations.Nullable String nonce) {
    if (host == null || !hosts.contains(host.toLowerCase(java.util.Locale.ROOT))) {
      return Verdict.refuse(403, "Host must be the loopback address and port of this service");
    }
    if (!originAllowed(origin))
      return Verdict.refuse(403, "browser connections from another origin are refused");
    if (nonce == null || !ServiceProof.validNonce(nonce))
      return Verdict.refuse(400, "give nonce: 32 lower-case hex characters");
    return new Verdict(Optional.empty(), 200, "ok");
  }

  /** The proofs for {@code nonce}, one per role, in no telling order. */
  public java.util.List<String> proofs(String nonce) {
    return java.util.Arrays.stream(Role.values())
        .map(r -> ServiceProof.of(secrets.secret(r), nonce, port))
        .sorted()
        .toList();
  }

  public Verdict check(String path, String host, String origin, String authorization) {
    if (host == null || !hosts.contains(host.toLowerCase(java.util.Locale.ROOT))) {
      return Verdict.refuse(403, "Host must be the loopback address and port of this service");
    }
    if (!originAllowed(origin)) {
      return Verdict.refuse(403, "browser connections from another origin are refused");
    }
    if (!"/rpc".equals(path) && !McpHttp.PATH.equals(path)) {
      return Verdict.refuse(404, "the service answers at /rpc and /mcp only");
    }
    if (authorization == null || !authorization.startsWith("Bearer ")) {
      return Verdict.refuse(401, "missing Authorization: Bearer <secret>");
    }
    Optional<Role> role =
        secrets.roleOf(authorization.substring("Bearer ".length()).trim());
    if (role.isEmpty()) {
      return Verdict.refuse(401, "the secret is not one of this installation's");
    }
    if (McpHttp.PATH.equals(path) && role.get() != Role.MCP) {
      return Verdict.refuse(403, "only the mcp secret (config/mcp.secret) opens /mcp");
    }
    return new Verdict(role, 101, "ok");
  }
}
