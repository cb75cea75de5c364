package dev.steward.service.tools.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.service.scope.HostScope;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.SecretTable;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Request headers the user configured for one origin (an API token, a session cookie), which
 * {@code web.fetch} adds to every request to exactly that scheme, host and port — and to no other,
 * not even after a redirect. They live in {@code config/secrets.json} ({@code web_fetch.headers},
 * a JSON object of origin → name → value), are set only by the window, and their values never
 * appear in a result, a row, a log line or a prompt: only their names do.
 */
final class HostHeaders {

  static final String SECTION = "web_fetch";
  static final String KEY = "headers";
  static final int MAX_PER_ORIGIN = 10;
  private static final int MAX_VALUE = 8192;
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
  /** Headers that belong to the connection or the address, not to what the user signs in with. */
  private static final Set<String> REFUSED = Set.of(
      "host",
      "connection",
      "content-length",
      "expect",
      "upgrade",
      "transfer-encoding",
      "te",
      "trailer",
      "keep-alive",
      "proxy-authorization",
      "proxy-connection");

  /** All configured headers: origin → (name → value), in the order they were added. */
  private final Map<String, Map<String, String>> byOrigin;
  /** How many entries of the file were left out as not valid (edited by hand, say). */
  private final int skipped;

  private HostHeaders(Map<String, Map<String, String>> byOrigin, int skipped) {
    this.byOrigin = byOrigin;
    this.skipped = skipped;
  }

  static HostHeaders none() {
    return new HostHeaders(new LinkedHashMap<>(), 0);
  }

  int skipped() {
    return skipped;
  }

  /** What {@code secrets} holds; a value that is not such an object is an {@link IOException}. */
  static HostHeaders read(PackSecrets secrets) throws IOException {
    ObjectNode o = SecretTable.read(secrets, SECTION, KEY);
    // Every entry passes the same checks as one set in Settings; the file may have been edited.
    HostHeaders all = none();
    int skipped = 0;
    var origins = o.fields();
    while (origins.hasNext()) {
      var origin = origins.next();
      var named = origin.getValue().fields();
      if (!origin.getValue().isObject() || !named.hasNext()) skipped++;
      while (named.hasNext()) {
        var h = named.next();
        try {
          if (!h.getValue().isTextual()) throw new IllegalArgumentException("not a text");
          all = all.with(origin.getKey(), h.getKey(), h.getValue().asText());
        } catch (IllegalArgumentException e) {
          skipped++;
        }
      }
    }
    return new HostHeaders(all.byOrigin, skipped);
  }

  /** The headers for the origin of {@code uri}: what the user configured for exactly there. */
  Map<String, String> forUri(URI uri) {
    String origin;
    try {
      origin = originOf(uri);
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
    return byOrigin.getOrDefault(origin, Map.of());
  }

  /** Origin → the configured names, sorted, for the window: never a value. */
  Map<String, java.util.List<String>> names() {
    Map<String, java.util.List<String>> out = new TreeMap<>();
    byOrigin.forEach((origin, headers) -> out.put(origin, java.util.List.copyOf(headers.keySet())));
    return out;
  }

  /**
   * This set with one header set ({@code value} non-null) or removed; the origin and name are
   * checked and normalised. Throws {@link IllegalArgumentException} with what is wrong.
   */
  HostHeaders with(String originText, String name, @Nullable String value) {
    String origin = origin(originText);
    if (!TOKEN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "\"" + name + "\" is not a header name (letters, digits and - only, at most 64)");
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (REFUSED.contains(lower) || lower.startsWith("proxy-")) {
      throw new IllegalArgumentException(name
          + " belongs to the connection, not to you: Steward sets it itself and it cannot be"
          + " configured");
    }
    if (value != null) {
      if (value.isBlank()) throw new IllegalArgumentException("the header's value is empty");
      if (value.length() > MAX_VALUE) {
        throw new IllegalArgumentException(
            "a header's value is at most " + MAX_VALUE + " characters");
      }
      // What every HTTP stack sends as it is: visible ASCII, spaces and tabs, on one line.
      if (value.chars().anyMatch(c -> c != '\t' && (c < 0x20 || c > 0x7e))) {
        throw new IllegalArgumentException(
            "a header's value is one line of plain ASCII characters (letters, digits,"
                + " punctuation, spaces)");
      }
    }
    Map<String, Map<String, String>> next = new LinkedHashMap<>();
    byOrigin.forEach((o, h) -> next.put(o, new LinkedHashMap<>(h)));
    Map<String, String> headers = next.computeIfAbsent(origin, o -> new LinkedHashMap<>());
    headers.keySet().removeIf(n -> n.equalsIgnoreCase(name));
    if (value != null) {
      if (headers.size() >= MAX_PER_ORIGIN) {
        throw new IllegalArgumentException(
            "at most " + MAX_PER_ORIGIN + " headers for one address");
      }
      headers.put(name, value);
    }
    if (headers.isEmpty()) next.remove(origin);
    return new HostHeaders(next, skipped);
  }

  /** The JSON text kept in {@code config/secrets.json}, or null when nothing is configured. */
  @Nullable
  String text() {
    return SecretTable.text(byOrigin);
  }

  /**
   * An origin as the user may type it — {@code https://api.example.org}, with a port when it is
   * not the scheme's own, a trailing slash allowed — normalised to scheme, lower-case ASCII host
   * and port. A path, query, fragment or user name is refused: the headers go to a whole origin.
   */
  static String origin(String text) {
    URI uri;
    try {
      uri = new URI(text.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "\"" + text + "\" is not an address like https://api.example.org");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("http")) {
      throw new IllegalArgumentException(
          "the address starts with https:// (or http://), e.g. https://api.example.org");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (uri.getHost() == null
        || uri.getRawUserInfo() != null
        || !(path.isEmpty() || path.equals("/"))
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("headers are set for a whole address: scheme, host and"
          + " port only, e.g. https://api.example.org (no path, query or user name)");
    }
    return originOf(uri);
  }

  private static String originOf(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    int defaultPort = scheme.equals("https") ? 443 : 80;
    String host = HostScope.asciiHost(uri);
    if (host.isEmpty()) throw new IllegalArgumentException("no host");
    if (host.contains(":")) host = "[" + host + "]";
    int port = uri.getPort();
    return scheme + "://" + host + (port < 0 || port == defaultPort ? "" : ":" + port);
  }
}
