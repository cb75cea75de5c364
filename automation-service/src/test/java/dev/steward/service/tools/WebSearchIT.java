package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code web.search} against servers on loopback that speak each provider's API as documented
 * (request shape, auth header, response fields): results mapped, Tavily's answer kept, a refused
 * key said so, no provider unavailable, and in a tainted conversation the query asks first.
 */
class WebSearchIT {

  /** A request a provider saw: method, path and query, the auth header, the body. */
  record Seen(String method, String target, String auth, String body) {}

  static HttpServer server;
  static String base;
  static final List<Seen> seen = new CopyOnWriteArrayList<>();
  TestService t;
  StewardClient ui;
  StewardClient agent;

  @BeforeAll
  static void providers() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/searx/search",
        x -> answer(
            x,
            200,
            "{\"query\":\"q\",\"results\":[{\"title\":\"Lasagne - Wikipedia\",\"url\":\"https://en.wikipedia.org/wiki/Lasagne\",\"content\":\"Lasagne is a type of pasta\",\"engine\":\"wikipedia\"}],\"answers\":[\"Lasagne is Italian.\"]}"));
    server.createContext(
        "/tavily/search",
        x -> answer(
            x,
            200,
            "{\"query\":\"q\",\"answer\":\"Bake at 180 C for 45 minutes.\",\"results\":[{\"title\":\"How long to bake lasagne\",\"url\":\"https://example.org/bake\",\"content\":\"Bake it for 45 minutes\",\"score\":0.93},{\"title\":\"Second\",\"url\":\"https://example.org/2\",\"content\":\"more\",\"score\":0.5}],\"response_time\":1.2}"));
    server.createContext(
        "/brave/res/v1/web/search",
        x -> answer(
            x,
            200,
            "{\"type\":\"search\",\"web\":{\"type\":\"search\",\"results\":[{\"title\":\"Brave result\",\"url\":\"https://example.org/b\",\"description\":\"A <strong>description</strong>\"}]}}"));
    server.createContext(
        "/refusing/search",
        x -> answer(
            x, 401, "{\"detail\":{\"error\":\"Unauthorized: missing or invalid API key.\"}}"));
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  static void answer(HttpExchange x, int status, String body) throws IOException {
    String auth = x.getRequestHeaders().getFirst("Authorization");
    String token = x.getRequestHeaders().getFirst("X-Subscription-Token");
    seen.add(new Seen(
        x.getRequestMethod(),
        x.getRequestURI().toString(),
        auth != null
            ? "Authorization: " + auth
            : token != null ? "X-Subscription-Token: " + token : "",
        new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(status, b.length);
    x.getResponseBody().write(b);
    x.close();
  }

  @AfterAll
  static void stopProviders() {
    server.stop(0);
  }

  @BeforeEach
  void start() {
    seen.clear();
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() {
    t.close();
  }

  void use(String provider, String url, String key) {
    PolicyDocument doc = ui.call(Methods.POLICY_GET, Map.of(), PolicyDocument.class)
        .withWebSearch(new PolicyDocument.WebSearch(provider, url));
    ui.call(Methods.POLICY_UPDATE, doc, PolicyDocument.class);
    if (key != null) {
      ui.await(ui.call(
          Methods.SECRETS_SET, Map.of("section", "web_search", "key", "api_key", "value", key)));
    }
  }

  static JsonNode ok(ToolResult r) {
    assertTrue(r.ok(), String.valueOf(r.error()));
    return r.value();
  }

  @Test
  void settings_test_asks_the_provider_in_force_and_says_what_failed_without_the_key() {
    JsonNode none = ui.call("web.search_check", Map.of(), JsonNode.class);
    assertFalse(none.path("ok").asBoolean(true));
    assertTrue(none.path("problem").asText().contains("SearXNG"), none.toString());
    use("searxng", base + "/searx", null);
    JsonNode fine = ui.call("web.search_check", Map.of(), JsonNode.class);
    assertTrue(fine.path("ok").asBoolean(), fine.toString());
    assertEquals("searxng", fine.path("provider").asText());
    assertEquals(
        "GET /searx/search?q=Steward+connection+test&format=json",
        seen.get(seen.size() - 1).method() + " " + seen.get(seen.size() - 1).target(),
        "a fixed query: nothing of the user's");
    use("tavily", base + "/refusing", "wrong-key");
    JsonNode refused = ui.call("web.search_check", Map.of(), JsonNode.class);
    assertFalse(refused.path("ok").asBoolean(true));
    assertTrue(
        refused.path("problem").asText().contains("refused the API key"), refused.toString());
    assertFalse(refused.toString().contains("wrong-key"));
    assertThrows(
        dev.steward.protocol.client.ClientException.class,
        () -> agent.call("web.search_check", Map.of(), JsonNode.class),
        "the ui role's alone");
  }

  @Test
  void no_provider_is_unavailable_and_says_how_to_set_one_up() {
    ToolResult r = TestService.exec(agent, "web.search", args("query", "lasagne"));
    assertEquals(ToolErrorCodes.UNAVAILABLE, r.error().code());
    assertTrue(r.error().message().contains("SearXNG"), r.error().message());
    use("tavily", base + "/tavily", null);
    ToolResult noKey = TestService.exec(agent, "web.search", args("query", "lasagne"));
    assertEquals(ToolErrorCodes.UNAVAILABLE, noKey.error().code());
    assertTrue(noKey.error().message().contains("API key"), noKey.error().message());
    assertTrue(seen.isEmpty(), "nothing was sent");
  }

  @Test
  void searxng_is_asked_for_json_and_its_results_and_answer_are_mapped() {
    use("searxng", base + "/searx", null);
    JsonNode v = ok(TestService.exec(agent, "web.search", args("query", "lasagne recipe")));
    assertEquals(
        "GET /searx/search?q=lasagne+recipe&format=json",
        seen.get(0).method() + " " + seen.get(0).target());
    assertEquals("Lasagne is Italian.", v.path("answer").asText());
    assertEquals("Lasagne - Wikipedia", v.path("results").get(0).path("title").asText());
    assertEquals(
        "Lasagne is a type of pasta", v.path("results").get(0).path("snippet").asText());
  }

  @Test
  void tavily_gets_the_seeds_request_with_a_bearer_key_and_its_answer_is_kept() throws Exception {
    use("tavily", base + "/tavily", "tvly-test-key");
    JsonNode v =
        ok(TestService.exec(agent, "web.search", args("query", "bake lasagne", "max_results", 1)));
    Seen s = seen.get(0);
    assertEquals("POST /tavily/search", s.method() + " " + s.target());
    assertEquals("Authorization: Bearer tvly-test-key", s.auth());
    JsonNode body = Json.parse(s.body());
    assertEquals("bake lasagne", body.path("query").asText());
    assertEquals(1, body.path("max_results").asInt());
    assertEquals("advanced", body.path("include_answer").asText());
    assertFalse(body.path("include_raw_content").asBoolean(true));
    assertEquals("Bake at 180 C for 45 minutes.", v.path("answer").asText());
    assertEquals(1, v.path("results").size(), "max_results is kept to");
    assertEquals(
        "https://example.org/bake", v.path("results").get(0).path("url").asText());
    assertFalse(v.toString().contains("tvly-test-key"), "the key never comes back");
  }

  @Test
  void brave_gets_its_subscription_token_and_a_refused_key_is_said_so() {
    use("brave", base + "/brave", "brave-key");
    JsonNode v =
        ok(TestService.exec(agent, "web.search", args("query", "lasagne", "max_results", 3)));
    assertEquals(
        "GET /brave/res/v1/web/search?q=lasagne&count=3",
        seen.get(0).method() + " " + seen.get(0).target());
    assertEquals("X-Subscription-Token: brave-key", seen.get(0).auth());
    assertEquals(
        "A <strong>description</strong>",
        v.path("results").get(0).path("snippet").asText());
    use("tavily", base + "/refusing", "wrong-key");
    // A fresh connection: the first search's results tainted this one, so a query from it asks.
    ToolResult refused =
        TestService.exec(t.client(Role.AGENT), "web.search", args("query", "lasagne"));
    assertEquals(ToolErrorCodes.UNAVAILABLE, refused.error().code());
    assertTrue(
        refused.error().message().contains("refused the API key"),
        refused.error().message());
    assertFalse(refused.error().message().contains("wrong-key"));
  }

  @Test
  void in_a_tainted_conversation_the_query_asks_first_and_nothing_is_sent_before() {
    use("searxng", base + "/searx", null);
    String conversation = TestService.id();
    ok(agent.execute(new Execute.Params(
        TestService.id(),
        TestService.id(),
        "web.search",
        args("query", "lasagne"),
        null,
        null,
        conversation)));
    seen.clear();
    ToolResult second = agent.execute(new Execute.Params(
        TestService.id(),
        TestService.id(),
        "web.search",
        args("query", "secret: 1234"),
        null,
        null,
        conversation));
    assertFalse(second.ok());
    assertTrue(
        List.of(ToolErrorCodes.TOKEN_MISSING, ToolErrorCodes.CONFIRMATION_REQUIRED)
            .contains(second.error().code()),
        String.valueOf(second.error()));
    assertTrue(seen.isEmpty(), "the query did not leave");
  }
}
