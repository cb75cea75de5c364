package dev.steward.service.tools.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.util.Counted;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code web.search}: the query goes to the provider the user configured ({@code web_search} in
 * the policy, its key in {@code config/secrets.json}); the query is the one piece of the
 * conversation that leaves, so in a tainted conversation it needs a click (the tool {@code
 * sends}). Results are a stranger's text: they taint.
 */
final class WebSearch extends BaseTool {

  static final String SECTION = "web_search";

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(WebSearch.class, "web.search.json");

  private final Supplier<PolicyDocument> policy;
  private final PackSecrets secrets;
  private final HttpClient client = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10))
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();

  WebSearch(Supplier<PolicyDocument> policy, PackSecrets secrets) {
    super(DEFINITION);
    this.policy = policy;
    this.secrets = secrets;
  }

  @Override
  public Optional<String> unavailable() {
    PolicyDocument.WebSearch config = policy.get().webSearch();
    String provider = config.provider();
    if (provider == null) {
      return Optional.of("no search provider is set up: in Settings, choose your own SearXNG"
          + " (its address) or Tavily or Brave Search (an API key)");
    }
    if (!provider.equals("searxng") && secrets.get(SECTION, "api_key").isEmpty()) {
      return Optional.of(SearchProvider.named(provider)
          + " needs an API key: set it in Settings (web_search.api_key)");
    }
    return Optional.empty();
  }

  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return Optional.of("web search results");
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    return search(args);
  }

  private JsonNode search(JsonNode args) throws ToolFailure {
    PolicyDocument.WebSearch config = policy.get().webSearch();
    String provider = java.util.Objects.requireNonNull(config.provider(), "checked as available");
    SearchProvider engine = SearchProvider.of(
        provider, config.url(), secrets.get(SECTION, "api_key").orElse(null));
    int max = args.path("max_results").asInt(5);
    SearchProvider.Found found =
        engine.search(client, args.path("query").asText(), max, Duration.ofSeconds(20));
    ObjectNode result = Json.object();
    result.put("provider", provider);
    if (found.answer() != null) result.put("answer", found.answer());
    ArrayNode results = result.putArray("results");
    for (SearchProvider.Hit h : found.hits()) {
      results
          .addObject()
          .put("title", cut(h.title(), 300))
          .put("url", cut(h.url(), 2000))
          .put("snippet", cut(h.snippet(), 1000));
    }
    return result;
  }

  /** The query Settings' Test sends: nothing of the user's, only that it is a test. */
  static final String TEST_QUERY = "Steward connection test";

  /**
   * Settings' Test: one search for {@link #TEST_QUERY} with the provider and key in force, answered
   * as {@code {ok, provider, results}} or {@code {ok: false, problem}} (never the key).
   */
  JsonNode check() {
    ObjectNode answer = Json.object();
    Optional<String> why = unavailable();
    if (why.isPresent()) return answer.put("ok", false).put("problem", why.get());
    try {
      JsonNode found = search(Json.object().put("query", TEST_QUERY).put("max_results", 1));
      return answer
          .put("ok", true)
          .put("provider", found.path("provider").asText())
          .put("results", found.path("results").size());
    } catch (ToolFailure e) {
      return answer.put("ok", false).put("problem", e.error().message());
    }
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(value.path("results").size(), "result", "results") + " from "
        + SearchProvider.named(value.path("provider").asText());
  }
}
