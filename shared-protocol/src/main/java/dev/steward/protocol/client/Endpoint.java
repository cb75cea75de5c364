package dev.steward.protocol.client;

import java.net.URI;
import java.util.Objects;

/** Where the service listens and the secret that decides this client's role. */
public record Endpoint(URI uri, String secret) {

  public Endpoint {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(secret, "secret");
  }

  public static Endpoint loopback(int port, String secret) {
    return new Endpoint(URI.create("ws://127.0.0.1:" + port + "/rpc"), secret);
  }

  @Override
  public String toString() {
    return "Endpoint[" + uri + "]"; // never print the secret
  }
}
