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
import org.jspecify.annotations.Nullable;

/**
 * The requests of a sign-in (metadata, registration, tokens) to addresses that a server's answers
 * name: only {@code https}, or {@code http} on this machine's loopback (as OAuth 2.1 and MCP allow),
 * no redirects followed, short time limits, bodies bounded. What comes back is read as data, never
 * shown to the model.
 */
final class SignInHttp {

  static final int MAX_BODY = 256 * 1024;
  private static final Duration TIME = Duration.ofSeconds(15);

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

  private final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10))
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();

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
  Optional<ObjectNode> getJson(URI uri) throws IOException {
    check(uri);
    HttpResponse<InputStream> r = send(HttpRequest.newBuilder(uri)
        .timeout(TIME)
        .header("Accept", "application/json")
        .header("MCP-Protocol-Version", "2025-11-25")
        .GET()
        .build());
    byte[] body = bounded(r.body());
    if (r.statusCode() != 200) return Optional.empty();
    return Optional.of(object(body, uri));
  }

  /** POSTs a JSON object; the answer must be 2xx with a JSON object. */
  ObjectNode postJson(URI uri, JsonNode body) throws IOException {
    check(uri);
    return answer(
        uri,
        send(HttpRequest.newBuilder(uri)
            .timeout(TIME)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build()));
  }

  /** POSTs a form, with HTTP Basic credentials when given; the answer must be 2xx JSON. */
  ObjectNode postForm(URI uri, Map<String, String> form, @Nullable String basic)
      throws IOException {
    check(uri);
    StringJoiner text = new StringJoiner("&");
    form.forEach((k, v) -> text.add(encode(k) + "=" + encode(v)));
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .timeout(TIME)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(text.toString()));
    if (basic != null) b.header("Authorization", basic);
    return answer(uri, send(b.build()));
  }

  /** RFC 6749 §2.3.1: each part form-encoded, then the pair in Base64. */
  static String basic(String clientId, String secret) {
    String pair = encode(clientId) + ":" + encode(secret);
    return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static void check(URI uri) throws IOException {
    if (!allowed(uri))
      throw new IOException("a sign-in address must be https, or http on this machine: " + uri);
  }

  private HttpResponse<InputStream> send(HttpRequest request) throws IOException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static ObjectNode answer(URI uri, HttpResponse<InputStream> r) throws IOException {
    byte[] body = bounded(r.body());
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

  private static byte[] bounded(InputStream in) throws IOException {
    try (in) {
      byte[] bytes = in.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) throw new IOException("an answer over " + MAX_BODY + " bytes");
      return bytes;
    }
  }
}
