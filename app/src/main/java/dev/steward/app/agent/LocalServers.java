package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Model servers running on this machine, found by asking each usual port on loopback at once: what
 * answers as its API says it should is offered in Settings. Nothing leaves the machine.
 */
public final class LocalServers {

  /** A port to ask, the API to expect there, and who usually listens on it. */
  public record Candidate(ModelServer.Kind kind, int port, String usually) {

    String url() {
      return kind == ModelServer.Kind.OLLAMA
          ? "http://127.0.0.1:" + port
          : "http://127.0.0.1:" + port + "/v1";
    }

    URI probe() {
      return URI.create(kind == ModelServer.Kind.OLLAMA ? url() + "/api/tags" : url() + "/models");
    }
  }

  /** A server that answered: its kind, its address, and a name for the list. */
  public record Found(ModelServer.Kind kind, String url, String label) {}

  /** The usual ports of the servers people run models with. */
  public static final List<Candidate> USUAL = List.of(
      new Candidate(ModelServer.Kind.OLLAMA, 11434, "Ollama"),
      new Candidate(ModelServer.Kind.OPENAI_COMPATIBLE, 1234, "LM Studio"),
      new Candidate(ModelServer.Kind.OPENAI_COMPATIBLE, 8080, "llama-server"),
      new Candidate(ModelServer.Kind.OPENAI_COMPATIBLE, 1337, "Jan"),
      new Candidate(ModelServer.Kind.OPENAI_COMPATIBLE, 8000, "vLLM"));

  private static final Duration TIMEOUT = Duration.ofMillis(800);

  private final List<Candidate> candidates;
  private final HttpClient http;

  public LocalServers(List<Candidate> candidates) {
    this.candidates = List.copyOf(candidates);
    this.http = HttpClient.newBuilder()
        .connectTimeout(TIMEOUT)
        .followRedirects(HttpClient.Redirect.NEVER)
        .proxy(HttpClient.Builder.NO_PROXY)
        .build();
  }

  /** The servers that answered, in the order of the candidates; waits at most about a second. */
  public List<Found> find() {
    List<CompletableFuture<Boolean>> asked =
        candidates.stream().map(this::answers).toList();
    java.util.ArrayList<Found> found = new java.util.ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      if (asked.get(i).join())
        found.add(new Found(c.kind(), c.url(), c.usually() + " (port " + c.port() + ")"));
    }
    return found;
  }

  private CompletableFuture<Boolean> answers(Candidate c) {
    HttpRequest request =
        HttpRequest.newBuilder(c.probe()).timeout(TIMEOUT).GET().build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> r.statusCode() == 200 && speaks(c.kind(), r.body()))
        .exceptionally(e -> false);
  }

  /** Whether a body is what the API returns there: {@code models} for Ollama, {@code data} else. */
  private static boolean speaks(ModelServer.Kind kind, String body) {
    try {
      JsonNode node = Json.parse(body);
      return node.path(kind == ModelServer.Kind.OLLAMA ? "models" : "data").isArray();
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
