package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a server at a URL has its users sign in, found as MCP's authorization spec says: the
 * server's protected-resource metadata (RFC 9728: the address its challenge names, else the
 * well-known one for its path, else for its root), the resource it names checked against the
 * server's own address (a server cannot have a token minted for another), then the authorization
 * server's metadata (RFC 8414 and OpenID Connect discovery, path-aware, in MCP's order), which
 * must name an issuer at the origin it was found at. A server of the 2025-03-26 revision, with no
 * resource metadata, is its own authorization server, at its metadata or else at the default
 * endpoints. Every address is held to the sign-in's {@link SignInHttp.Reach}.
 */
final class SignInDiscovery {

  private SignInDiscovery() {}

  /** What a sign-in needs to know of the authorization server. */
  record AuthServer(
      String issuer,
      URI authorization,
      URI token,
      @Nullable URI registration,
      List<String> authMethods,
      boolean issInResponse) {}

  /** The resource to ask a token for, its authorization server, and the scopes it lists. */
  record Found(String resource, AuthServer server, List<String> scopesSupported) {}

  static Found discover(
      SignInHttp http, SignInHttp.Reach reach, URI server, @Nullable String resourceMetadata)
      throws IOException {
    Optional<ObjectNode> prm = Optional.empty();
    if (resourceMetadata != null) {
      URI named = parse(reach, resourceMetadata, "the server's resource metadata address");
      prm = http.getJson(reach, named);
    }
    String path = trimmed(server.getRawPath());
    String wellKnown = origin(server) + "/.well-known/oauth-protected-resource";
    if (prm.isEmpty() && !path.isEmpty()) prm = http.getJson(reach, URI.create(wellKnown + path));
    if (prm.isEmpty()) prm = http.getJson(reach, URI.create(wellKnown));
    if (prm.isEmpty()) {
      // MCP 2025-03-26: the server's own origin is its authorization server.
      URI base = URI.create(origin(server));
      Optional<AuthServer> found = metadata(http, reach, base);
      AuthServer as = found.isPresent()
          ? found.get()
          : new AuthServer(
              origin(base),
              endpoint(reach, base.resolve("/authorize").toString(), "authorization_endpoint"),
              endpoint(reach, base.resolve("/token").toString(), "token_endpoint"),
              endpoint(reach, base.resolve("/register").toString(), "registration_endpoint"),
              List.of(),
              false);
      return new Found(canonical(server), as, List.of());
    }
    ObjectNode doc = prm.get();
    String resource =
        doc.path("resource").isTextual() ? doc.path("resource").asText() : canonical(server);
    if (!covers(parse(reach, resource, "the resource the server names"), server))
      throw new IOException("the server's sign-in metadata is for another address (" + resource
          + "), not " + canonical(server) + "; Steward does not sign in there");
    JsonNode servers = doc.path("authorization_servers");
    if (!servers.isArray() || servers.isEmpty() || !servers.get(0).isTextual())
      throw new IOException("the server's sign-in metadata names no authorization server");
    URI issuer = parse(reach, servers.get(0).asText(), "the authorization server's address");
    AuthServer as = metadata(http, reach, issuer)
        .orElseThrow(() -> new IOException(
            "the authorization server " + issuer + " publishes no metadata Steward can find"));
    return new Found(resource, as, texts(doc.path("scopes_supported")));
  }

  /** The authorization server's metadata, from the first of MCP's well-known places that has it. */
  private static Optional<AuthServer> metadata(SignInHttp http, SignInHttp.Reach reach, URI issuer)
      throws IOException {
    String origin = origin(issuer);
    String path = trimmed(issuer.getRawPath());
    List<String> places = path.isEmpty()
        ? List.of(
            origin + "/.well-known/oauth-authorization-server",
            origin + "/.well-known/openid-configuration")
        : List.of(
            origin + "/.well-known/oauth-authorization-server" + path,
            origin + "/.well-known/openid-configuration" + path,
            origin + path + "/.well-known/openid-configuration");
    for (String place : places) {
      Optional<ObjectNode> doc = http.getJson(reach, URI.create(place));
      if (doc.isPresent()) return Optional.of(authServer(reach, issuer, doc.get()));
    }
    return Optional.empty();
  }

  /**
   * The metadata's endpoints, from a document that names its own issuer at the origin it was
   * looked up at: one served elsewhere cannot pass for another authorization server (a mix-up
   * would send a code the user gave one server to another's token endpoint). RFC 8414 wants the
   * issuer exactly; its origin is held to, as servers under a path do not all name theirs.
   */
  private static AuthServer authServer(SignInHttp.Reach reach, URI lookedUp, ObjectNode doc)
      throws IOException {
    JsonNode named = doc.path("issuer");
    if (!named.isTextual())
      throw new IOException("the authorization server's metadata names no issuer");
    URI issuer = parse(reach, named.asText(), "the authorization server's issuer");
    if (!origin(issuer).equals(origin(lookedUp)))
      throw new IOException("the authorization server's metadata at " + origin(lookedUp)
          + " says it is " + named.asText() + "; Steward does not sign in there");
    List<String> challenges = texts(doc.path("code_challenge_methods_supported"));
    if (!challenges.contains("S256"))
      throw new IOException(
          "the authorization server does not say it supports PKCE with S256; Steward does not"
              + " sign in without it");
    URI authorization = optionalEndpoint(reach, doc, "authorization_endpoint")
        .orElseThrow(
            () -> new IOException("the authorization server names no authorization_endpoint"));
    URI token = optionalEndpoint(reach, doc, "token_endpoint")
        .orElseThrow(() -> new IOException("the authorization server names no token_endpoint"));
    return new AuthServer(
        named.asText(),
        authorization,
        token,
        optionalEndpoint(reach, doc, "registration_endpoint").orElse(null),
        texts(doc.path("token_endpoint_auth_methods_supported")),
        doc.path("authorization_response_iss_parameter_supported").asBoolean(false));
  }

  private static Optional<URI> optionalEndpoint(
      SignInHttp.Reach reach, ObjectNode doc, String field) throws IOException {
    JsonNode v = doc.path(field);
    if (!v.isTextual()) return Optional.empty();
    return Optional.of(endpoint(reach, v.asText(), field));
  }

  private static URI endpoint(SignInHttp.Reach reach, String text, String field)
      throws IOException {
    return parse(reach, text, "the authorization server's " + field);
  }

  /**
   * Whether a token for {@code resource} may be sent to {@code server}: the same origin, and the
   * server's path the resource's or under it.
   */
  static boolean covers(URI resource, URI server) {
    if (!origin(resource).equals(origin(server))) return false;
    String r = trimmed(resource.getRawPath());
    String s = trimmed(server.getRawPath());
    return r.isEmpty() || s.equals(r) || s.startsWith(r + "/");
  }

  /** The server's address as a resource is named (RFC 8707): no query, no fragment. */
  static String canonical(URI server) {
    String path = server.getRawPath() == null ? "" : server.getRawPath();
    return origin(server) + path;
  }

  /** Scheme, host and port, lower-cased, with the scheme's default port left out. */
  static String origin(URI uri) {
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    boolean plain = port == -1
        || (scheme.equals("https") && port == 443)
        || (scheme.equals("http") && port == 80);
    return scheme + "://" + host + (plain ? "" : ":" + port);
  }

  private static String trimmed(@Nullable String path) {
    if (path == null) return "";
    String p = path;
    while (p.endsWith("/")) p = p.substring(0, p.length() - 1);
    return p;
  }

  private static URI parse(SignInHttp.Reach reach, String text, String what) throws IOException {
    try {
      URI uri = new URI(text);
      if (!reach.allows(uri))
        throw new IOException(what + " must be https (http only on this machine, for a server on"
            + " this machine): " + text);
      return uri;
    } catch (java.net.URISyntaxException e) {
      throw new IOException(what + " is not an address: " + text);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    if (array.isArray())
      array.forEach(v -> {
        if (v.isTextual()) out.add(v.asText());
      });
    return out;
  }
}
