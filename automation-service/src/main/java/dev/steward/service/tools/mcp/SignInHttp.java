package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The requests of a sign-in (metadata, registration, tokens) to addresses that a server's answers
 * name, each within the {@link Reach} of that server, no redirects followed, the whole exchange
 * (headers and body) within 15 seconds, bodies bounded. What comes back is read as data, never
 * shown to the model.
 */
final class SignInHttp {

  static final int MAX_BODY = 256 * 1024;
  static final Duration TIME = Duration.ofSeconds(15);

  /** A request the other side answered with an error, with OAuth's error code when it gave one. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;
    final @Nullable String error;

    Refused(int status, @Nullable String error, String message) {
      super(message);
      this.status = status;
      this.error = error;
    }
  }

  /**
   * Where a sign-in for one server may send requests, and the user's browser: {@code https}
   * anywhere; {@code http} only on this machine and only for a server on this machine (a server
   * elsewhere cannot point them at the user's local services); never at the service's own port.
   */
  record Reach(boolean local, int ownPort) {

    static Reach of(URI server, URI redirect) {
      return new Reach(server.getHost() != null && loopback(server.getHost()), redirect.getPort());
    }

    boolean allows(URI uri) {
      if (!allowed(uri)) return false;
      // Read generously: a spelling that may reach this machine counts as this machine here.
      boolean here = dev.steward.protocol.util.Loopback.mayName(
          java.util.Objects.requireNonNull(uri.getHost()));
      if (here && (uri.getPort() == ownPort || uri.getPort() == -1 && ownPort == 80)) return false;
      return !here || local;
    }
  }

  private static final java.util.concurrent.ScheduledExecutorService DEADLINES =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          dev.steward.protocol.util.DaemonThreads.named("sign-in-deadline"));

  /**
   * Made at the first sign-in, not with the service: building one starts a thread and loads the
   * TLS stack, which a service with no server to sign in to never needs.
   */
  private @Nullable HttpClient client;

  private synchronized HttpClient client() {
    HttpClient c = client;
    if (c == null) {
      c = client = HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
    }
    return c;
  }

  /** Whether Steward may send a sign-in's requests (or a browser) to this address. */
  static boolean allowed(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getRawUserInfo() != null || uri.getHost() == null || uri.getRawFragment() != null)
      return false;
    if (scheme.equals("https")) return true;
    return scheme.equals("http") && loopback(uri.getHost());
  }

  static boolean loopback(String host) {
    return dev.steward.protocol.util.Loopback.host(host);
  }

  /** A JSON object at {@code uri}, or empty when there is none there (any status but 200). */
  Optional<ObjectNode> getJson(Reach reach, URI uri) throws IOException {
    check(reach, uri);
    long deadline = System.nanoTime() + TIME.toNanos();
    HttpResponse<InputStream> r = send(
        HttpRequest.newBuilder(uri)
            .timeout(TIME)
            .header("Accept", "application/json")
            .header("MCP-Protocol-Version", "2025-11-25")
            .GET()
            .build(),
        deadline);
    byte[] body = bounded(r.body(), deadline);
    if (r.statusCode() != 200) return Optional.empty();
    return Optional.of(object(body, uri));
  }

  /** POSTs a JSON object; the answer must be 2xx with a JSON object. */
  ObjectNode postJson(Reach reach, URI uri, JsonNode body) throws IOException {
    check(reach, uri);
    long deadline = System.nanoTime() + TIME.toNanos();
    return answer(
        uri,
        send(
            HttpRequest.newBuilder(uri)
                .timeout(TIME)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(),
            deadline),
        deadline);
  }

  /** POSTs a form, with HTTP Basic credentials when given; the answer must be 2xx JSON. */
  ObjectNode postForm(Reach reach, URI uri, Map<String, String> form, @Nullable String basic)
      throws IOException {
    check(reach, uri);
    long deadline = System.nanoTime() + TIME.toNanos();
    StringJoiner text = new StringJoiner("&");
    form.forEach((k, v) -> text.add(encode(k) + "=" + encode(v)));
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(TIME)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(text.toString()));
    if (basic != null) b.header("Authorization", basic);
    return answer(uri, send(b.build(), deadline), deadline);
  }

  /** RFC 6749 §2.3.1: each part form-encoded, then the pair in Base64. */
  static String basic(String clientId, String secret) {
    String pair = encode(clientId) + ":" + encode(secret);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static void check(Reach reach, URI uri) throws IOException {
    if (!reach.allows(uri))
      throw new IOException("a sign-in address must be https (http only on this machine, for a"
          + " server on this machine): " + uri);
  }

  /** The answer's headers, by the deadline. */
  private HttpResponse<InputStream> send(HttpRequest request, long deadline) throws IOException {
    var pending = client().sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    try {
      return pending.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      pending.cancel(true);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (java.util.concurrent.TimeoutException e) {
      pending.cancel(true);
      throw new IOException(
          request.uri().getHost() + " did not answer within " + TIME.toSeconds() + " s");
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      throw new IOException(request.uri().getHost() + " could not be reached: "
          + (c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage()));
    }
  }

  private static ObjectNode answer(URI uri, HttpResponse<InputStream> r, long deadline)
      throws IOException {
    byte[] body = bounded(r.body(), deadline);
    if (r.statusCode() / 100 != 2) {
      String error = null;
      try {
        JsonNode e = Json.parse(new String(body, StandardCharsets.UTF_8));
        if (e.path("error").isTextual() && e.path("error").asText().matches("[A-Za-z0-9_.-]{1,64}"))
          error = e.path("error").asText();
      } catch (IOException | RuntimeException e) {
        // not JSON: only the status is said
      }
      throw new Refused(
          r.statusCode(),
          error,
          uri.getHost() + " answered HTTP " + r.statusCode()
              + (error == null ? "" : " (" + error + ")"));
    }
    return object(body, uri);
  }

  private static ObjectNode object(byte[] body, URI uri) throws IOException {
    try {
      if (Json.parse(new String(body, StandardCharsets.UTF_8)) instanceof ObjectNode o) return o;
    } catch (IOException | RuntimeException e) {
      // said below
    }
    throw new IOException(uri.getHost() + " did not answer with a JSON object");
  }

  /** The body, up to {@link #MAX_BODY} and by the deadline: a body that trickles is cut off. */
  private static byte[] bounded(InputStream in, long deadline) throws IOException {
    var closer = DEADLINES.schedule(
        () -> {
          try {
            in.close();
          } catch (IOException e) {
            // closed already
          }
        },
        Math.max(0, deadline - System.nanoTime()),
        TimeUnit.NANOSECONDS);
    try (in) {
      byte[] bytes = in.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) throw new IOException("an answer over " + MAX_BODY + " bytes");
      if (System.nanoTime() - deadline > 0)
        throw new IOException("the answer took over " + TIME.toSeconds() + " s");
      return bytes;
    } finally {
      closer.cancel(false);
    }
  }
}
