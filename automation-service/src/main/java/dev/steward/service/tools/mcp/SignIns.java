package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Mcp;
import dev.steward.service.tools.BrowserReturns;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.PackSecrets;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Sign-ins to MCP servers at a URL (MCP's authorization: OAuth 2.1 with PKCE, resource indicators,
 * dynamic registration or a client the user was given). Only the user starts one, from the window
 * ({@code mcp.sign_in}, ui role): Steward finds where the server signs its users in, registers
 * itself there if it must, and hands the window the address to open in the user's browser; the
 * browser comes back to the service's loopback port with a code, which is taken only with the
 * single-use {@code state} made for it and exchanged with the PKCE verifier that never left the
 * service. The tokens are kept in {@code config/secrets.json}, bound to the address they were
 * given for, sent to that address alone, refreshed when they run out, and never shown to the model,
 * the window, a result or a row. A server that later wants more access says so, and the user signs
 * in again with the scopes asked for added to those held.
 */
final class SignIns {

  static final String SECTION = "mcp_oauth";
  static final Duration PENDING_LIFE = Duration.ofMinutes(10);
  static final int MAX_PENDING = 16;
  /** A token this close to its end is renewed before a connection is made. */
  private static final Duration EARLY = Duration.ofSeconds(30);

  private static final Logger LOG = Logger.getLogger(SignIns.class.getName());
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A server's sign-in as kept: the client Steward is at the authorization server, and tokens. */
  record Kept(
      String server,
      String url,
      String resource,
      String tokenEndpoint,
      String redirect,
      String clientId,
      @Nullable String clientSecret,
      String authMethod,
      @Nullable String accessToken,
      @Nullable String refreshToken,
      long expiresAt,
      List<String> scopes) {

    Kept withTokens(
        @Nullable String access, @Nullable String refresh, long expires, List<String> s) {
      return new Kept(
          server,
          url,
          resource,
          tokenEndpoint,
          redirect,
          clientId,
          clientSecret,
          authMethod,
          access,
          refresh,
          expires,
          s);
    }
  }

  /** The client Steward signs in as, and how it proves it at the token endpoint. */
  private record Client(String id, @Nullable String secret, String method) {}

  /** A sign-in the browser has not come back from yet. */
  private record Pending(
      String server,
      String url,
      String verifier,
      SignInDiscovery.Found found,
      Client client,
      List<String> scopes,
      String redirect,
      long epoch,
      long until) {}

  /** What the server last asked for: the scopes it named and where its metadata is. */
  private record Wanted(Set<String> scopes, @Nullable String resourceMetadata) {}

  private final PackSecrets secrets;
  private final SignInHttp http;
  private final Supplier<URI> redirect;
  private final Consumer<String> signedIn;
  private final java.util.function.BiPredicate<String, String> configured;
  private final Clock clock;
  /** Renewals under way, one per server: a second caller waits for the first's outcome. */
  private final Map<String, java.util.concurrent.CompletableFuture<Renewal>> renewing =
      new ConcurrentHashMap<>();

  private final Map<String, Optional<Kept>> kept = new ConcurrentHashMap<>();
  private final Map<String, Wanted> wanted = new ConcurrentHashMap<>();
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  /** Bumped when a server is signed out or removed: a sign-in begun before is not kept. */
  private final Map<String, Long> epochs = new ConcurrentHashMap<>();

  /**
   * @param redirect the address the browser comes back to (the service's loopback port)
   * @param signedIn told the server's name once a sign-in has its tokens
   * @param configured whether a server of this name is still configured at this address
   */
  SignIns(
      PackSecrets secrets,
      SignInHttp http,
      Supplier<URI> redirect,
      Consumer<String> signedIn,
      java.util.function.BiPredicate<String, String> configured,
      Clock clock) {
    this.configured = configured;
    this.secrets = secrets;
    this.http = http;
    this.redirect = redirect;
    this.signedIn = signedIn;
    this.clock = clock;
  }

  /** Whether tokens are kept for this server at this address. */
  boolean signedIn(String server, String url) {
    return kept(server)
        .filter(k -> k.url().equals(url) && k.accessToken() != null)
        .isPresent();
  }

  /**
   * The access token to send to the server at {@code url}, as kept (read for each request: never
   * a request of its own); none when the user has not signed in there (or signed in for another
   * address).
   */
  Optional<String> bearer(String server, String url) {
    return kept(server).filter(x -> x.url().equals(url)).map(Kept::accessToken);
  }

  /**
   * Renews the token first if it is about to run out (before a connection is made: a token that
   * runs out during one is renewed when the server answers 401).
   */
  void renewIfDue(String server, String url) {
    Optional<Kept> k = kept(server).filter(x -> x.url().equals(url) && x.accessToken() != null);
    if (k.isPresent()
        && k.get().expiresAt() != 0
        && k.get().refreshToken() != null
        && clock.millis() > k.get().expiresAt() - EARLY.toMillis()) refresh(server, url);
  }

  /** What came of a renewal. */
  enum Renewal {
    /** A new token is kept. */
    RENEWED,
    /** No token to renew with, or the authorization server refused: the user signs in again. */
    REFUSED,
    /** The authorization server could not be reached or answered otherwise: tried again later. */
    UNREACHABLE
  }

  /**
   * A new token from the refresh token (the server refused the one it was sent, or it is about to
   * run out). A renewal under way is shared by whoever else asks meanwhile.
   */
  Renewal refresh(String server, String url) {
    var mine = new java.util.concurrent.CompletableFuture<Renewal>();
    var running = renewing.putIfAbsent(server, mine);
    if (running != null) {
      try {
        return running.get(SignInHttp.TIME.toSeconds() * 2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Renewal.UNREACHABLE;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        return Renewal.UNREACHABLE;
      }
    }
    Renewal outcome = Renewal.UNREACHABLE;
    try {
      outcome = renew(server, url);
      return outcome;
    } finally {
      mine.complete(outcome);
      renewing.remove(server, mine);
    }
  }

  /**
   * One renewal, its request made holding no lock (a slow server delays its own calls only); what
   * it brings replaces the kept sign-in only if nothing else did meanwhile. Only the authorization
   * server's own refusal (401, or 400 with OAuth's error for a grant or client it no longer takes)
   * drops the tokens.
   */
  private Renewal renew(String server, String url) {
    Optional<Kept> k = kept(server).filter(x -> x.url().equals(url));
    if (k.isEmpty()) return Renewal.REFUSED;
    Kept was = k.get();
    if (was.refreshToken() == null) {
      replace(was, was.withTokens(null, null, 0, was.scopes()));
      return Renewal.REFUSED;
    }
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "refresh_token");
    form.put("refresh_token", java.util.Objects.requireNonNull(was.refreshToken()));
    form.put("resource", was.resource());
    Client client = new Client(was.clientId(), was.clientSecret(), was.authMethod());
    try {
      ObjectNode answer = tokenRequest(reach(url), URI.create(was.tokenEndpoint()), form, client);
      // Kept unless a sign-in or sign-out came first; either way what is kept now is current.
      replace(was, tokens(was, answer, was.scopes(), true));
      return Renewal.RENEWED;
    } catch (SignInHttp.Refused e) {
      boolean refused = e.status == 401
          || (e.status == 400
              && e.error != null
              && List.of("invalid_grant", "invalid_client", "unauthorized_client")
                  .contains(e.error));
      if (!refused) {
        LOG.warning("the sign-in to the MCP server “" + server + "” could not be renewed now: "
            + e.getMessage());
        return Renewal.UNREACHABLE;
      }
      LOG.warning("the sign-in to the MCP server “" + server + "” was not renewed: "
          + e.getMessage() + "; the user signs in again");
      replace(was, was.withTokens(null, null, 0, was.scopes()));
      return Renewal.REFUSED;
    } catch (IOException e) {
      LOG.warning("the sign-in to the MCP server “" + server + "” could not be renewed now: "
          + e.getMessage());
      return Renewal.UNREACHABLE;
    }
  }

  /** Keeps {@code next} if the kept sign-in is still {@code was}; answers whether it did. */
  private boolean replace(Kept was, Kept next) {
    synchronized (lock(was.server())) {
      if (!kept(was.server()).equals(Optional.of(was))) return false;
      store(next);
      return true;
    }
  }

  private SignInHttp.Reach reach(String url) {
    return SignInHttp.Reach.of(URI.create(url), redirect.get());
  }

  /** Notes what a server's challenge asks for, for the next sign-in. */
  void challenged(String server, AuthChallenge c) {
    Set<String> scopes = new LinkedHashSet<>();
    if (c.insufficientScope()) {
      // More access for one operation: what is held stays asked for, with what is now wanted.
      kept(server).ifPresent(k -> scopes.addAll(k.scopes()));
      Wanted before = wanted.get(server);
      if (before != null) scopes.addAll(before.scopes());
    }
    scopes.addAll(c.scopes());
    wanted.put(server, new Wanted(scopes, c.resourceMetadata().orElse(null)));
  }

  /** Whether the token held already carries every scope the challenge names. */
  boolean holds(String server, AuthChallenge c) {
    Optional<Kept> k = kept(server).filter(x -> x.accessToken() != null);
    return k.isPresent() && !c.scopes().isEmpty() && k.get().scopes().containsAll(c.scopes());
  }

  /**
   * Starts a sign-in to the server at {@code url}: finds its authorization server, registers
   * Steward there unless the user gave a client (or one registered before is still good), and
   * answers the address for the user's browser.
   */
  URI begin(String server, String url, @Nullable String clientId, @Nullable String clientSecret)
      throws IOException {
    URI endpoint = URI.create(url);
    // Read first: a sign-out while the server's metadata is looked up makes this sign-in stale.
    long epoch = epoch(server);
    Wanted w = wanted.getOrDefault(server, new Wanted(Set.of(), null));
    SignInHttp.Reach reach = reach(url);
    SignInDiscovery.Found found =
        SignInDiscovery.discover(http, reach, endpoint, w.resourceMetadata());
    // Each authorization server sends the browser back to an address of its own (RFC 9700
    // §4.4.2): a code that comes back at another's was not given for this sign-in.
    String back = redirect.get() + "/"
        + CanonicalJson.sha256Hex(found.server().issuer().getBytes(StandardCharsets.UTF_8))
            .substring(0, 16);
    Client client = client(reach, server, url, found, back, clientId, clientSecret);
    List<String> scopes = !w.scopes().isEmpty() ? List.copyOf(w.scopes()) : found.scopesSupported();
    String verifier = random();
    String state = random();
    synchronized (pending) {
      long now = clock.millis();
      pending.values().removeIf(p -> p.until() < now);
      while (pending.size() >= MAX_PENDING) {
        Iterator<String> oldest = pending.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
      pending.put(
          state,
          new Pending(
              server,
              url,
              verifier,
              found,
              client,
              scopes,
              back,
              epoch,
              now + PENDING_LIFE.toMillis()));
    }
    StringBuilder q = new StringBuilder();
    add(q, "response_type", "code");
    add(q, "client_id", client.id());
    add(q, "redirect_uri", back);
    add(q, "code_challenge", challenge(verifier));
    add(q, "code_challenge_method", "S256");
    add(q, "state", state);
    add(q, "resource", found.resource());
    if (!scopes.isEmpty()) add(q, "scope", String.join(" ", scopes));
    URI authorization = found.server().authorization();
    String sep = authorization.getRawQuery() == null ? "?" : "&";
    return URI.create(authorization + sep + q);
  }

  /** The browser came back: the code is exchanged for tokens if its state is one Steward made. */
  BrowserReturns.Page arrive(String path, Map<String, String> query) {
    String state = query.get("state");
    Pending p;
    synchronized (pending) {
      p = state == null ? null : pending.remove(state);
    }
    if (p == null || p.until() < clock.millis())
      return new BrowserReturns.Page(
          400,
          "Not signed in",
          "Steward is not waiting for this sign-in: it was used already, is over ten minutes old,"
              + " or was not started in Steward. Start it again in Steward's Settings → MCP servers.");
    // The address each authorization server was given, and RFC 9207's iss where one is sent: a
    // code from another than the one asked is not exchanged.
    if (!URI.create(p.redirect()).getPath().equals(path)) return fromAnother(p);
    String error = query.get("error");
    if (error != null) {
      String code = error.matches("[a-z_]{1,40}") ? " (" + error + ")" : "";
      LOG.info("the sign-in to the MCP server “" + p.server() + "” was refused" + code);
      return new BrowserReturns.Page(
          400, "Not signed in", "The sign-in to “" + p.server() + "” was refused" + code + ".");
    }
    String code = query.get("code");
    if (code == null || code.isEmpty())
      return new BrowserReturns.Page(400, "Not signed in", "The sign-in came back with no code.");
    String iss = query.get("iss");
    SignInDiscovery.AuthServer as = p.found().server();
    if ((iss != null && !iss.equals(as.issuer())) || (iss == null && as.issInResponse()))
      return fromAnother(p);
    if (!configured.test(p.server(), p.url()))
      return new BrowserReturns.Page(
          400,
          "Not signed in",
          "“" + p.server() + "” is no longer in Steward's settings at the address it was for.");
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "authorization_code");
    form.put("code", code);
    form.put("redirect_uri", p.redirect());
    form.put("code_verifier", p.verifier());
    form.put("resource", p.found().resource());
    try {
      ObjectNode answer =
          tokenRequest(reach(p.url()), p.found().server().token(), form, p.client());
      Kept fresh = new Kept(
          p.server(),
          p.url(),
          p.found().resource(),
          p.found().server().token().toString(),
          p.redirect(),
          p.client().id(),
          p.client().secret(),
          p.client().method(),
          null,
          null,
          0,
          p.scopes());
      Kept signedInNow = tokens(fresh, answer, p.scopes(), false);
      // Asked before the lock (the servers' own lock is taken while it removes a sign-in); a
      // removal after this bumps the epoch, or comes after the store and removes it.
      boolean stillThere = configured.test(p.server(), p.url());
      synchronized (lock(p.server())) {
        // Signed out or removed while the code was exchanged: what it brought is not kept.
        if (epoch(p.server()) != p.epoch() || !stillThere)
          return new BrowserReturns.Page(
              409,
              "Not signed in",
              "“" + p.server() + "” was signed out or changed during the sign-in; start it again.");
        store(signedInNow);
      }
    } catch (IOException e) {
      LOG.warning("the sign-in to the MCP server “" + p.server() + "” failed: " + e.getMessage());
      return new BrowserReturns.Page(
          502,
          "Not signed in",
          "Steward could not finish the sign-in to “" + p.server() + "”: " + e.getMessage());
    }
    wanted.remove(p.server());
    LOG.info("signed in to the MCP server “" + p.server() + "”");
    signedIn.accept(p.server());
    return new BrowserReturns.Page(
        200,
        "Signed in",
        "Steward is signed in to “" + p.server() + "”. You can close this tab.",
        Mcp.SIGN_IN,
        "signed in to the MCP server " + PackMethod.quoted(p.server()) + " in the browser");
  }

  private static BrowserReturns.Page fromAnother(Pending p) {
    LOG.warning("a sign-in to the MCP server “" + p.server() + "” came back from another"
        + " authorization server than the one asked; not exchanged");
    return new BrowserReturns.Page(
        400,
        "Not signed in",
        "The sign-in came back from another sign-in service than the one Steward asked; its code"
            + " was not used.");
  }

  private long epoch(String server) {
    return epochs.getOrDefault(server, 0L);
  }

  /** Forgets the server's tokens (the client registration is kept for the next sign-in). */
  void signOut(String server) {
    synchronized (lock(server)) {
      epochs.merge(server, 1L, Long::sum);
      kept(server).ifPresent(k -> store(k.withTokens(null, null, 0, List.of())));
    }
    wanted.remove(server);
  }

  /** A server removed from the policy: everything kept for it goes. */
  void forget(String server) {
    synchronized (lock(server)) {
      epochs.merge(server, 1L, Long::sum);
      try {
        secrets.set(SECTION, key(server), null);
      } catch (IOException | RuntimeException e) {
        LOG.warning("cannot remove the sign-in of a removed MCP server: " + e.getMessage());
      }
      kept.put(server, Optional.empty());
    }
    wanted.remove(server);
  }

  private Client client(
      SignInHttp.Reach reach,
      String server,
      String url,
      SignInDiscovery.Found found,
      String back,
      @Nullable String clientId,
      @Nullable String clientSecret)
      throws IOException {
    SignInDiscovery.AuthServer as = found.server();
    List<String> methods = as.authMethods();
    if (clientId != null && !clientId.isBlank()) {
      String method = clientSecret == null || clientSecret.isEmpty()
          ? "none"
          : methods.isEmpty() || methods.contains("client_secret_basic")
              ? "client_secret_basic"
              : methods.contains("client_secret_post")
                  ? "client_secret_post"
                  : "client_secret_basic";
      return new Client(clientId.strip(), method.equals("none") ? null : clientSecret, method);
    }
    Optional<Kept> before = kept(server)
        .filter(k -> k.url().equals(url)
            && k.tokenEndpoint().equals(as.token().toString())
            && k.redirect().equals(back));
    if (before.isPresent())
      return new Client(
          before.get().clientId(), before.get().clientSecret(), before.get().authMethod());
    URI registration = as.registration();
    if (registration == null)
      throw new IOException("the server's sign-in service does not let Steward register itself:"
          + " enter the client ID (and secret) its provider gave you for Steward, with " + back
          + " as its return address (any port on 127.0.0.1, if the provider asks)");
    String asked = methods.isEmpty() || methods.contains("none")
        ? "none"
        : methods.contains("client_secret_basic")
            ? "client_secret_basic"
            : methods.contains("client_secret_post") ? "client_secret_post" : "none";
    ObjectNode body = Json.object();
    body.put("client_name", "Steward");
    body.putArray("redirect_uris").add(back);
    body.putArray("grant_types").add("authorization_code").add("refresh_token");
    body.putArray("response_types").add("code");
    body.put("token_endpoint_auth_method", asked);
    ObjectNode answer = http.postJson(reach, registration, body);
    String id = text(answer, "client_id")
        .orElseThrow(() -> new IOException("the registration gave no client_id"));
    String secret = text(answer, "client_secret").orElse(null);
    String method = text(answer, "token_endpoint_auth_method")
        .orElse(secret == null ? "none" : "client_secret_basic");
    if (!List.of("none", "client_secret_basic", "client_secret_post").contains(method))
      throw new IOException("the authorization server wants " + method
          + " at its token endpoint, which Steward does not do");
    return new Client(id, secret, method);
  }

  private ObjectNode tokenRequest(
      SignInHttp.Reach reach, URI token, Map<String, String> form, Client client)
      throws IOException {
    Map<String, String> body = new LinkedHashMap<>(form);
    String basic = null;
    switch (client.method()) {
      case "client_secret_basic" ->
        basic = SignInHttp.basic(
            client.id(), java.util.Objects.requireNonNullElse(client.secret(), ""));
      case "client_secret_post" -> {
        body.put("client_id", client.id());
        body.put("client_secret", java.util.Objects.requireNonNullElse(client.secret(), ""));
      }
      default -> body.put("client_id", client.id());
    }
    return http.postForm(reach, token, body, basic);
  }

  /** The tokens of an answer, checked: a bearer token that can go in a header. */
  private Kept tokens(Kept base, ObjectNode answer, List<String> asked, boolean refreshing)
      throws IOException {
    String access = text(answer, "access_token")
        .filter(t -> t.length() <= 8192 && t.chars().allMatch(c -> c >= 0x21 && c <= 0x7e))
        .orElseThrow(() -> new IOException("the token endpoint gave no usable access_token"));
    String type = text(answer, "token_type").orElse("");
    if (!type.equalsIgnoreCase("bearer"))
      throw new IOException("the token endpoint gave a token of type \"" + type + "\", not Bearer");
    // A refresh that gives no new refresh token leaves the old one in use (RFC 6749 §6).
    String refresh = text(answer, "refresh_token").orElse(refreshing ? base.refreshToken() : null);
    long expires = answer.path("expires_in").canConvertToLong()
            && answer.path("expires_in").asLong() > 0
        ? clock.millis() + Math.min(answer.path("expires_in").asLong(), 10L * 365 * 86400) * 1000
        : 0;
    List<String> scopes = text(answer, "scope")
        .map(s -> List.copyOf(new LinkedHashSet<>(Arrays.asList(s.trim().split("\\s+")))))
        .orElse(asked);
    return base.withTokens(access, refresh, expires, scopes);
  }

  private Optional<Kept> kept(String server) {
    return kept.computeIfAbsent(server, this::load);
  }

  private Optional<Kept> load(String server) {
    Optional<String> text = secrets.get(SECTION, key(server));
    if (text.isEmpty()) return Optional.empty();
    try {
      Kept k = Json.convert(Json.parse(text.get()), Kept.class);
      return k.server().equals(server) ? Optional.of(k) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      LOG.warning("the kept sign-in of an MCP server cannot be read; the user signs in again");
      return Optional.empty();
    }
  }

  private void store(Kept k) {
    kept.put(k.server(), Optional.of(k));
    try {
      secrets.set(SECTION, key(k.server()), Json.write(k));
    } catch (IOException | RuntimeException e) {
      // Held for this run; the next start asks for a sign-in again.
      LOG.warning("cannot keep the sign-in of the MCP server “" + k.server() + "” in"
          + " config/secrets.json: " + e.getMessage());
    }
  }

  private Object lock(String server) {
    return locks.computeIfAbsent(server, s -> new Object());
  }

  /** Each server's row under a key secrets.json takes, whatever characters its name has. */
  static String key(String server) {
    return "s"
        + CanonicalJson.sha256Hex(server.getBytes(StandardCharsets.UTF_8)).substring(0, 24);
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode v = node.path(field);
    return v.isTextual() && !v.asText().isEmpty() ? Optional.of(v.asText()) : Optional.empty();
  }

  private static String random() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  static String challenge(String verifier) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(CanonicalJson.sha256(verifier.getBytes(StandardCharsets.US_ASCII)));
  }

  private static void add(StringBuilder q, String name, String value) {
    if (q.length() > 0) q.append('&');
    q.append(SignInHttp.encode(name)).append('=').append(SignInHttp.encode(value));
  }
}
