package dev.steward.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small server on loopback that speaks Ollama's HTTP API ({@code /api/tags}, {@code /api/show},
 * {@code /api/chat} with NDJSON streaming and {@code tool_calls}), answering each chat request with
 * the next scripted reply. The production client (langchain4j-ollama) talks to it unchanged.
 */
public final class FakeOllama implements ModelStub {

  public static final String MODEL = "fake-tools:1b";

  /** Listed second; its card says it cannot call tools. */
  public static final String TALK_ONLY_MODEL = "chatty:1b";

  /**
   * One streamed answer: text chunks, or tool calls; or a recorded response body sent as it is
   * ({@code raw}), in the server's own streaming format.
   */
  public record Reply(
      List<String> chunks,
      List<ObjectNode> toolCalls,
      Duration delayPerChunk,
      @org.jspecify.annotations.Nullable String raw,
      int failureStatus) {
    public static Reply text(String... chunks) {
      return new Reply(List.of(chunks), List.of(), Duration.ZERO, null, 0);
    }

    public static Reply slowText(Duration delay, String... chunks) {
      return new Reply(List.of(chunks), List.of(), delay, null, 0);
    }

    public static Reply calls(ObjectNode... calls) {
      return new Reply(List.of(), List.of(calls), Duration.ZERO, null, 0);
    }

    public static Reply raw(String body) {
      return new Reply(List.of(), List.of(), Duration.ZERO, body, 0);
    }

    /** The request fails as the server fails one: this HTTP status, the API's error body. */
    public static Reply failure(int status, String message) {
      return new Reply(List.of(), List.of(), Duration.ZERO, message, status);
    }
  }

  /** Sends an error response: {@code body} with the status. */
  static void sendError(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** A tool call as Ollama sends it: {@code {function: {name, arguments}}}. */
  public static ObjectNode call(String modelToolName, String argumentsJson) {
    ObjectNode call = Json.object();
    ObjectNode fn = call.putObject("function");
    fn.put("name", modelToolName);
    try {
      fn.set("arguments", Json.parse(argumentsJson));
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
    return call;
  }

  static {
    // Real model servers (Go's net/http, uvicorn, llama-server) answer with TCP_NODELAY; the JDK's
    // server does not by default, and Nagle's wait on its chunked writes would add ~40 ms a line.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
  /** When set, answers every chat request from the request itself instead of the script. */
  private volatile java.util.function.@org.jspecify.annotations.Nullable Function<JsonNode, Reply>
      responder;

  private final List<JsonNode> chatRequests = new CopyOnWriteArrayList<>();
  /** System.nanoTime() at each chat request's arrival, first byte out, and last byte out. */
  private final List<long[]> timings = new CopyOnWriteArrayList<>();

  private final boolean toolCapable;

  public FakeOllama() throws IOException {
    this(true);
  }

  public FakeOllama(boolean toolCapable) throws IOException {
    this.toolCapable = toolCapable;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/tags", this::tags);
    server.createContext("/api/show", this::show);
    server.createContext("/api/chat", this::chat);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  @Override
  public String modelName() {
    return MODEL;
  }

  @Override
  public void configure(com.fasterxml.jackson.databind.node.ObjectNode settings) {
    settings.put("ollama_url", url());
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void enqueue(Reply... replies) {
    script.addAll(List.of(replies));
  }

  /** Answers each chat request by {@code respond} (a model that reads what it is sent) rather than from the script. */
  public void respondWith(java.util.function.Function<JsonNode, Reply> respond) {
    this.responder = respond;
  }

  /** Answers from the script again, not from a responder. */
  public void useScript() {
    this.responder = null;
  }

  /** The chat requests received so far, parsed. */
  @Override
  public List<JsonNode> chatRequests() {
    return new ArrayList<>(chatRequests);
  }

  private void tags(HttpExchange ex) throws IOException {
    ObjectNode body = Json.object();
    ArrayNode listed = body.putArray("models");
    for (String name : List.of(MODEL, TALK_ONLY_MODEL)) {
      ObjectNode model = listed.addObject();
      model
          .put("name", name)
          .put("model", name)
          .put("size", 1000)
          .put("digest", "0123abcd")
          .put("modified_at", "2026-01-01T00:00:00Z");
      model
          .putObject("details")
          .put("format", "gguf")
          .put("family", "fake")
          .put("parameter_size", "1B")
          .put("quantization_level", "Q4_0");
    }
    send(ex, 200, body.toString());
  }

  private void show(HttpExchange ex) throws IOException {
    JsonNode asked =
        Json.parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    String name =
        asked.has("model") ? asked.get("model").asText() : asked.path("name").asText();
    ObjectNode body = Json.object();
    body.put("modelfile", "").put("parameters", "").put("template", "");
    body.putObject("details").put("format", "gguf").put("family", "fake");
    ArrayNode caps = body.putArray("capabilities").add("completion");
    if (toolCapable && !name.equals(TALK_ONLY_MODEL)) caps.add("tools");
    send(ex, 200, body.toString());
  }

  /**
   * For each chat request: its arrival, the first byte of the answer, the last (nanoTime; 0 until
   * it happens).
   */
  public List<long[]> timings() {
    return new ArrayList<>(timings);
  }

  private void chat(HttpExchange ex) throws IOException {
    long[] timing = new long[3];
    timing[0] = System.nanoTime();
    timings.add(timing);
    JsonNode request =
        Json.parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    chatRequests.add(request);
    Reply reply;
    var respond = responder;
    if (respond != null) {
      reply = respond.apply(request);
    } else {
      try {
        reply = script.poll(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (reply == null) reply = Reply.text("(no scripted reply)");
    if (reply.failureStatus() != 0) {
      // Ollama's error shape: {"error": "..."}.
      sendError(
          ex, reply.failureStatus(), Json.object().put("error", reply.raw()).toString());
      return;
    }
    ex.getResponseHeaders().add("Content-Type", "application/x-ndjson");
    timing[1] = System.nanoTime();
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      if (reply.raw() != null) {
        out.write(reply.raw().getBytes(StandardCharsets.UTF_8));
        return;
      }
      for (String chunk : reply.chunks()) {
        ObjectNode line = line(false);
        ((ObjectNode) line.get("message")).put("content", chunk);
        writeLine(out, line);
        if (!reply.delayPerChunk().isZero()) sleep(reply.delayPerChunk());
      }
      if (!reply.toolCalls().isEmpty()) {
        ObjectNode line = line(false);
        ArrayNode calls = ((ObjectNode) line.get("message")).putArray("tool_calls");
        // Ollama numbers the calls of one message (function.index); clients tell them apart by it.
        for (int i = 0; i < reply.toolCalls().size(); i++) {
          ObjectNode c = reply.toolCalls().get(i).deepCopy();
          ((ObjectNode) c.get("function")).put("index", i);
          calls.add(c);
        }
        writeLine(out, line);
      }
      ObjectNode done = line(true);
      done.put("done_reason", "stop")
          .put("total_duration", 1000)
          .put("prompt_eval_count", 10)
          .put("eval_count", 5);
      writeLine(out, done);
      timing[2] = System.nanoTime();
    } catch (IOException e) {
      // the client hung up (Stop): nothing more to send
    }
  }

  private static ObjectNode line(boolean done) {
    ObjectNode line = Json.object();
    line.put("model", MODEL).put("created_at", "2026-11-26T00:00:00Z");
    line.putObject("message").put("role", "assistant").put("content", "");
    line.put("done", done);
    return line;
  }

  private static void writeLine(OutputStream out, JsonNode line) throws IOException {
    out.write((line.toString() + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
