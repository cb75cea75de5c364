package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.json.Json;
import dev.steward.service.MutableClock;
import dev.steward.service.tools.BrowserReturns;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sign-ins against an authorization server on loopback that speaks OAuth as RFC 6749, 7591, 7636,
 * 8414, 8707 and 9728 document it (discovery, registration, the code with PKCE, refresh).
 */
class SignInsTest {

  HttpServer server;
  String base;
  String mcp;
  final MutableClock clock = new MutableClock();
  final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();
  final List<String> signedIn = new CopyOnWriteArrayList<>();
  int registrations;
  final List<String> removed = new CopyOnWriteArrayList<>();
  volatile String issuer;
  volatile boolean trickle;
  volatile boolean unavailable;
  volatile boolean proxyRefuses;
  volatile @Nullable String resourceNamed;
  volatile String tokenEndpoint;
  volatile boolean refuseRefresh;
  int issued;
  SignIns signIns;

  final McpEnvTest.Secrets secrets = new McpEnvTest.Secrets();
  final Map<String, String> kept = secrets.values;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    base = "http://127.0.0.1:" + server.getAddress().getPort();
    mcp = base + "/mcp";
    resourceNamed = mcp;
    tokenEndpoint = base + "/token";
    issuer = base;
    server.createContext("/.well-known/oauth-protected-resource/mcp", x -> {
      ObjectNode doc = Json.object();
      doc.put("resource", resourceNamed);
      doc.putArray("authorization_servers").add(base);
      doc.putArray("scopes_supported").add("read");
      json(x, 200, doc);
    });
    server.createContext("/.well-known/oauth-authorization-server", x -> {
      ObjectNode doc = Json.object();
      doc.put("issuer", issuer);
      doc.put("authorization_endpoint", base + "/authorize");
      doc.put("token_endpoint", tokenEndpoint);
      doc.put("registration_endpoint", base + "/register");
      doc.putArray("code_challenge_methods_supported").add("S256");
      doc.putArray("token_endpoint_auth_methods_supported").add("none");
      json(x, 200, doc);
    });
    server.createContext("/register", x -> {
      registrations++;
      json(x, 201, Json.object().put("client_id", "client-" + registrations));
    });
    server.createContext("/token", x -> {
      if (unavailable) {
        json(x, 503, Json.object().put("error", "temporarily_unavailable"));
        return;
      }
      if (proxyRefuses) {
        // A proxy's page, not the authorization server's answer.
        byte[] page = "<html>Bad Request</html>".getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(400, page.length);
        x.getResponseBody().write(page);
        x.close();
        return;
      }
      if (trickle) {
        // headers at once, then a byte now and then: a body that never ends
        x.sendResponseHeaders(200, 0);
        try {
          for (int i = 0; i < 120; i++) {
            x.getResponseBody().write(' ');
            x.getResponseBody().flush();
            Thread.sleep(500);
          }
        } catch (IOException | InterruptedException e) {
          // the client gave up
        }
        x.close();
        return;
      }
      Map<String, String> form =
          form(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      tokenRequests.add(form);
      if (form.get("grant_type").equals("refresh_token") && refuseRefresh) {
        json(x, 400, Json.object().put("error", "invalid_grant"));
        return;
      }
      issued++;
      json(
          x,
          200,
          Json.object()
              .put("access_token", "at-" + issued)
              .put("token_type", "Bearer")
              .put("expires_in", 60)
              .put("refresh_token", "rt-" + issued));
    });
    server.start();
    signIns = new SignIns(
        secrets,
        new SignInHttp(),
        () -> URI.create("http://127.0.0.1:4242" + BrowserReturns.PATH),
        signedIn::add,
        (name, url) -> !removed.contains(name),
        clock);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void a_sign_in_proves_itself_with_pkce_and_its_token_goes_to_its_address_alone()
      throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    assertEquals("code", asked.get("response_type"));
    assertEquals("client-1", asked.get("client_id"));
    assertEquals("S256", asked.get("code_challenge_method"));
    assertEquals(mcp, asked.get("resource"));
    assertEquals("read", asked.get("scope"));
    assertTrue(
        asked.get("redirect_uri").startsWith("http://127.0.0.1:4242" + BrowserReturns.PATH + "/"),
        "an address of this authorization server's own: " + asked.get("redirect_uri"));
    BrowserReturns.Page page = arrive(asked, Map.of("code", "c", "state", asked.get("state")));
    assertEquals(200, page.status(), page.message());
    Map<String, String> exchange = tokenRequests.get(0);
    assertEquals(asked.get("code_challenge"), SignIns.challenge(exchange.get("code_verifier")));
    assertEquals(mcp, exchange.get("resource"));
    assertEquals("client-1", exchange.get("client_id"));
    assertEquals(List.of("notes"), signedIn);
    assertEquals(Optional.of("at-1"), signIns.bearer("notes", mcp));
    assertTrue(signIns.signedIn("notes", mcp));
    // The same name at another address (a pasted block over it, an edit) gets nothing.
    assertEquals(Optional.empty(), signIns.bearer("notes", base + "/other"));
    assertEquals(Optional.empty(), signIns.bearer("other", mcp));
    assertTrue(kept.get(SignIns.SECTION + "." + SignIns.key("notes")).contains("at-1"));
  }

  @Test
  void a_state_is_taken_once_and_an_unknown_one_exchanges_nothing() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    assertEquals(400, arrive(asked, Map.of("code", "c", "state", "made-up")).status());
    assertEquals(400, arrive(asked, Map.of("code", "c")).status());
    assertEquals(0, tokenRequests.size(), "nothing was exchanged");
    assertEquals(
        200, arrive(asked, Map.of("code", "c", "state", asked.get("state"))).status());
    assertEquals(
        400, arrive(asked, Map.of("code", "c", "state", asked.get("state"))).status());
    assertEquals(1, tokenRequests.size());
  }

  @Test
  void a_refusal_or_an_old_state_signs_nothing_in() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    BrowserReturns.Page refused =
        arrive(asked, Map.of("error", "access_denied", "state", asked.get("state")));
    assertEquals(400, refused.status());
    assertTrue(refused.message().contains("access_denied"), refused.message());
    Map<String, String> late = query(signIns.begin("notes", mcp, null, null));
    clock.advance(SignIns.PENDING_LIFE.plusSeconds(1));
    assertEquals(
        400, arrive(asked, Map.of("code", "c", "state", late.get("state"))).status());
    assertEquals(0, tokenRequests.size());
    assertFalse(signIns.signedIn("notes", mcp));
  }

  @Test
  void a_token_about_to_run_out_is_renewed_and_a_refused_renewal_signs_out() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    arrive(asked, Map.of("code", "c", "state", asked.get("state")));
    clock.advance(Duration.ofSeconds(45));
    assertEquals(Optional.of("at-1"), signIns.bearer("notes", mcp), "reading never renews");
    signIns.renewIfDue("notes", mcp);
    assertEquals(Optional.of("at-2"), signIns.bearer("notes", mcp));
    assertEquals("rt-1", tokenRequests.get(1).get("refresh_token"));
    assertEquals(mcp, tokenRequests.get(1).get("resource"));
    refuseRefresh = true;
    clock.advance(Duration.ofSeconds(45));
    signIns.renewIfDue("notes", mcp);
    assertEquals(Optional.empty(), signIns.bearer("notes", mcp));
    assertFalse(signIns.signedIn("notes", mcp));
  }

  @Test
  void more_scope_asked_for_is_added_to_what_is_held() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    arrive(asked, Map.of("code", "c", "state", asked.get("state")));
    AuthChallenge more =
        new AuthChallenge(403, "Bearer error=\"insufficient_scope\", scope=\"write\"");
    assertFalse(signIns.holds("notes", more));
    signIns.challenged("notes", more);
    Map<String, String> again = query(signIns.begin("notes", mcp, null, null));
    assertEquals("read write", again.get("scope"));
    assertEquals(1, registrations, "the client registered before is used again");
    assertTrue(signIns.holds("notes", new AuthChallenge(403, "Bearer scope=\"read\"")));
  }

  @Test
  void a_resource_named_for_another_address_is_not_signed_in_to() {
    resourceNamed = "https://evil.example/mcp";
    IOException e = assertThrows(IOException.class, () -> signIns.begin("notes", mcp, null, null));
    assertTrue(e.getMessage().contains("another address"), e.getMessage());
    assertEquals(0, registrations);
  }

  @Test
  void an_endpoint_elsewhere_over_plain_http_is_refused() {
    tokenEndpoint = "http://example.com/token";
    assertThrows(IOException.class, () -> signIns.begin("notes", mcp, null, null));
    assertEquals(0, registrations);
  }

  @Test
  void metadata_that_names_an_issuer_elsewhere_is_not_used() {
    issuer = "https://as.legit.example";
    IOException e = assertThrows(IOException.class, () -> signIns.begin("notes", mcp, null, null));
    assertTrue(e.getMessage().contains("says it is"), e.getMessage());
    assertEquals(0, registrations);
  }

  @Test
  void a_code_from_another_issuer_or_for_a_server_since_removed_is_not_exchanged()
      throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    assertEquals(
        400,
        arrive(asked, Map.of("code", "c", "state", asked.get("state"), "iss", "https://other"))
            .status());
    Map<String, String> again = query(signIns.begin("notes", mcp, null, null));
    removed.add("notes");
    assertEquals(
        400, arrive(asked, Map.of("code", "c", "state", again.get("state"))).status());
    assertEquals(0, tokenRequests.size());
    assertFalse(signIns.signedIn("notes", mcp));
  }

  @Test
  void a_token_endpoint_that_trickles_is_given_up_on_within_its_time() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    trickle = true;
    long start = System.nanoTime();
    BrowserReturns.Page page = arrive(asked, Map.of("code", "c", "state", asked.get("state")));
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertEquals(502, page.status(), page.message());
    assertTrue(seconds <= SignInHttp.TIME.toSeconds() + 3, seconds + " s");
  }

  @Test
  void a_server_elsewhere_cannot_point_a_sign_in_at_this_machine() {
    SignInHttp.Reach remote = SignInHttp.Reach.of(
        URI.create("https://mcp.example.com/mcp"), URI.create("http://127.0.0.1:4242/cb"));
    assertFalse(remote.allows(URI.create("http://127.0.0.1:8888/admin/delete?all=1")));
    assertFalse(remote.allows(URI.create("https://localhost/authorize")));
    for (String here : List.of(
        "https://localhost./authorize",
        "https://app.localhost/authorize",
        "https://0.0.0.0:8443/authorize",
        "https://0x7f.1/authorize",
        "https://2130706433/authorize",
        "https://[::]/authorize",
        "https://[::ffff:127.0.0.1]/authorize")) assertFalse(remote.allows(URI.create(here)), here);
    assertTrue(remote.allows(URI.create("https://auth.example.com/authorize")));
    SignInHttp.Reach local = SignInHttp.Reach.of(
        URI.create("http://127.0.0.1:9000/mcp"), URI.create("http://127.0.0.1:4242/cb"));
    assertTrue(local.allows(URI.create("http://127.0.0.1:9001/authorize")));
    assertFalse(
        local.allows(URI.create("http://127.0.0.1:4242/rpc")), "never the service's own port");
  }

  @Test
  void only_https_or_this_machine_is_reached() {
    assertTrue(SignInHttp.allowed(URI.create("https://auth.example.com/token")));
    assertTrue(SignInHttp.allowed(URI.create("http://127.0.0.1:9/token")));
    assertTrue(SignInHttp.allowed(URI.create("http://[::1]:9/token")));
    assertFalse(SignInHttp.allowed(URI.create("http://auth.example.com/token")));
    assertFalse(SignInHttp.allowed(URI.create("http://127.0.0.1.evil.com/token")));
    assertFalse(SignInHttp.allowed(URI.create("https://user@auth.example.com/token")));
    assertFalse(SignInHttp.allowed(URI.create("javascript:alert(1)")));
    assertFalse(SignInHttp.allowed(URI.create("file:///etc/passwd")));
  }

  /** The browser back at the address the sign-in gave. */
  private BrowserReturns.Page arrive(Map<String, String> asked, Map<String, String> query) {
    return signIns.arrive(URI.create(asked.get("redirect_uri")).getPath(), query);
  }

  @Test
  void a_code_back_at_another_authorization_servers_address_or_after_a_sign_out_is_not_kept()
      throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    assertEquals(
        400,
        signIns
            .arrive(
                BrowserReturns.PATH + "/0123456789abcdef",
                Map.of("code", "c", "state", asked.get("state")))
            .status());
    assertEquals(0, tokenRequests.size(), "a mix-up: nothing exchanged");
    Map<String, String> again = query(signIns.begin("notes", mcp, null, null));
    signIns.signOut("notes");
    assertEquals(
        409, arrive(again, Map.of("code", "c", "state", again.get("state"))).status());
    assertFalse(signIns.signedIn("notes", mcp));
  }

  @Test
  void a_renewal_the_server_cannot_answer_now_keeps_the_sign_in() throws Exception {
    Map<String, String> asked = query(signIns.begin("notes", mcp, null, null));
    arrive(asked, Map.of("code", "c", "state", asked.get("state")));
    unavailable = true;
    assertEquals(SignIns.Renewal.UNREACHABLE, signIns.refresh("notes", mcp));
    assertTrue(signIns.signedIn("notes", mcp), "out of reach is not a refusal");
    unavailable = false;
    proxyRefuses = true;
    assertEquals(SignIns.Renewal.UNREACHABLE, signIns.refresh("notes", mcp));
    assertTrue(signIns.signedIn("notes", mcp), "nor is a 400 that is not OAuth's");
    proxyRefuses = false;
    refuseRefresh = true;
    assertEquals(SignIns.Renewal.REFUSED, signIns.refresh("notes", mcp));
    assertFalse(signIns.signedIn("notes", mcp));
  }

  private static Map<String, String> query(URI uri) {
    return form(uri.getRawQuery());
  }

  private static Map<String, String> form(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : text.split("&")) {
      int eq = pair.indexOf('=');
      out.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  private static void json(HttpExchange x, int status, ObjectNode body) throws IOException {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(status, bytes.length);
    x.getResponseBody().write(bytes);
    x.close();
  }
}
