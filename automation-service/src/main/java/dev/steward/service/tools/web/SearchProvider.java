package dev.steward.service.tools.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A search engine behind {@code web.search}, spoken to as its own API documents it: SearXNG's
 * JSON API (a user's own instance), Tavily's {@code POST /search} (seed 000: an advanced answer,
 * no raw content) and Brave's web search. Only the query and the number of results leave.
 */
interface SearchProvider {

  int MAX_ANSWER_BYTES = 2 << 20;

  /** One result, as every provider's is shown. */
  record Hit(String title, String url, String snippet) {}

  /** What a search found: the provider's own short answer where it gives one, and the hits. */
  record Found(@Nullable String answer, List<Hit> hits) {}

  Found search(HttpClient client, String query, int max, Duration timeout) throws ToolFailure;

  /** A provider's name as people know it, for what the user reads (an id: {@code tavily}). */
  static String named(String provider) {
    return switch (provider) {
      case "searxng" -> "SearXNG";
      case "tavily" -> "Tavily";
      case "brave" -> "Brave Search";
      default -> provider;
    };
  }

  static SearchProvider of(String provider, @Nullable String url, @Nullable String key) {
    return switch (provider) {
      case "searxng" -> new SearXng(java.util.Objects.requireNonNull(url));
      case "tavily" ->
        new Tavily(url == null ? "https://api.tavily.com" : url, key == null ? "" : key);
      case "brave" ->
        new Brave(url == null ? "https://api.search.brave.com" : url, key == null ? "" : key);
      default -> throw new IllegalArgumentException("no search provider " + provider);
    };
  }

  /** Sends a request and reads its JSON answer; a refusal or a broken answer says so. */
  static JsonNode exchange(HttpClient client, HttpRequest request, String provider)
      throws ToolFailure {
    HttpResponse<InputStream> response;
    byte[] bytes;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        // A search answer is a few kilobytes; a provider that sends more is cut off.
        bytes = in.readNBytes(MAX_ANSWER_BYTES);
      }
    } catch (java.net.http.HttpTimeoutException e) {
      throw new ToolFailure(ToolErrorCodes.TIMEOUT, provider + " did not answer in time");
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, provider + " cannot be reached: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the search was cancelled");
    }
    int status = response.statusCode();
    if (status == 401 || status == 403) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          provider + " refused the API key (HTTP " + status + "): check it in Settings");
    }
    if (status == 429) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, provider + " says too many searches for now (HTTP 429)");
    }
    if (status / 100 != 2) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, provider + " answered HTTP " + status);
    }
    try {
      return Json.parse(new String(bytes, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, provider + " answered no JSON");
    }
  }

  static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    return v.isTextual() ? v.asText() : "";
  }

  static String param(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** A user's own SearXNG: {@code GET /search?q=…&format=json}. */
  record SearXng(String base) implements SearchProvider {
    @Override
    public Found search(HttpClient client, String query, int max, Duration timeout)
        throws ToolFailure {
      HttpRequest request = HttpRequest.newBuilder(
              URI.create(strip(base) + "/search?q=" + param(query) + "&format=json"))
          .header("Accept", "application/json")
          .timeout(timeout)
          .GET()
          .build();
      JsonNode body = exchange(client, request, "SearXNG");
      List<Hit> hits = new ArrayList<>();
      for (JsonNode r : body.path("results")) {
        if (hits.size() >= max) break;
        hits.add(new Hit(text(r, "title"), text(r, "url"), text(r, "content")));
      }
      JsonNode answers = body.path("answers");
      String answer = answers.isArray() && !answers.isEmpty()
          ? (answers.get(0).isTextual() ? answers.get(0).asText() : text(answers.get(0), "answer"))
          : null;
      return new Found(answer == null || answer.isEmpty() ? null : answer, hits);
    }
  }

  /** Tavily: {@code POST /search}, the key as a bearer token, an advanced answer, no raw content. */
  record Tavily(String base, String key) implements SearchProvider {
    @Override
    public Found search(HttpClient client, String query, int max, Duration timeout)
        throws ToolFailure {
      ObjectNode body = Json.object();
      body.put("query", query);
      body.put("max_results", max);
      body.put("include_answer", "advanced");
      body.put("include_raw_content", false);
      HttpRequest request = HttpRequest.newBuilder(URI.create(strip(base) + "/search"))
          .header("Authorization", "Bearer " + key)
          .header("Content-Type", "application/json")
          .timeout(timeout)
          .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)))
          .build();
      JsonNode answer = exchange(client, request, "Tavily");
      List<Hit> hits = new ArrayList<>();
      for (JsonNode r : answer.path("results")) {
        if (hits.size() >= max) break;
        hits.add(new Hit(text(r, "title"), text(r, "url"), text(r, "content")));
      }
      String text = text(answer, "answer");
      return new Found(text.isEmpty() ? null : text, hits);
    }
  }

  /** Brave: {@code GET /res/v1/web/search?q=…&count=…} with {@code X-Subscription-Token}. */
  record Brave(String base, String key) implements SearchProvider {
    @Override
    public Found search(HttpClient client, String query, int max, Duration timeout)
        throws ToolFailure {
      HttpRequest request = HttpRequest.newBuilder(
              URI.create(strip(base) + "/res/v1/web/search?q=" + param(query) + "&count=" + max))
          .header("Accept", "application/json")
          .header("X-Subscription-Token", key)
          .timeout(timeout)
          .GET()
          .build();
      JsonNode body = exchange(client, request, "Brave Search");
      List<Hit> hits = new ArrayList<>();
      for (JsonNode r : body.path("web").path("results")) {
        if (hits.size() >= max) break;
        hits.add(new Hit(text(r, "title"), text(r, "url"), text(r, "description")));
      }
      return new Found(null, hits);
    }
  }

  private static String strip(String base) {
    return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }
}
