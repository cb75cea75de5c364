package dev.steward.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.steward.app.FakeOllama.Reply;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A small server on loopback that speaks OpenAI's chat completions API as local servers serve it
 * (LM Studio, llama-server, vLLM): {@code GET /v1/models}, and {@code POST /v1/chat/completions}
 * streamed as server-sent events — content deltas, tool calls whose arguments arrive in fragments
 * under their {@code index}, a {@code finish_reason}, a final chunk with {@code usage}, then {@code
 * [DONE]}. The production client (langchain4j-open-ai) talks to it unchanged. Replies are the same
 * scripts {@link FakeOllama} takes; a raw reply is a recorded SSE body.
 */
public final class FakeOpenAi implements ModelStub {

  public static final String MODEL = "qwen2.5-7b-instruct";

  static {
    // Real model servers (Go's net/http, uvicorn, llama-server) answer with TCP_NODELAY; the JDK's
    // server does not by default, and Nagle's wait on its chunked writes would add ~40 ms a line.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final BlockingQueue<Reply> script = new LinkedBlockingQueue<>();
  private volatile @Nullable Function<JsonNode, Reply> responder;
  private final List<JsonNode> chatRequests = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  public FakeOpenAi() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/models", this::models);
    server.createContext("/v1/chat/completions", this::chat);
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  @Override
  public String modelName() {
    return MODEL;
  }

  @Override
  public void configure(ObjectNode settings) {
    settings.put("provider", "openai_compatible").put("openai_url", url()).put("model", MODEL);
  }

  /** The base URL a client is given: it ends in {@code /v1}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The next chat request is answered with this status and body instead of a stream. */
  public void refuseNext(int status, String body) {
    refusal = new String[] {Integer.toString(status), body};
  }

  private volatile String @Nullable [] refusal;

  @Override
  public void enqueue(Reply... replies) {
    script.addAll(List.of(replies));
  }

  public void respondWith(Function<JsonNode, Reply> respond) {
    this.responder = respond;
  }

  @Override
  public List<JsonNode> chatRequests() {
    return new ArrayList<>(chatRequests);
  }

  /** The Authorization headers the chat requests came with ("" when none). */
  public List<String> authorizations() {
    return new ArrayList<>(authorizations);
  }

  private void models(HttpExchange ex) throws IOException {
    ObjectNode body = Json.object().put("object", "list");
    body.putArray("data")
        .addObject()
        .put("id", MODEL)
        .put("object", "model")
        .put("created", 1_764_115_200)
        .put("owned_by", "organization_owner");
    send(ex, body.toString());
  }

  private void chat(HttpExchange ex) throws IOException {
    JsonNode request =
        Json.parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    chatRequests.add(request);
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    authorizations.add(auth == null ? "" : auth);
    String[] refused = refusal;
    if (refused != null) {
      refusal = null;
      byte[] bytes = refused[1].getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(Integer.parseInt(refused[0]), bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
      return;
    }
    Reply reply;
    Function<JsonNode, Reply> respond = responder;
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
      // OpenAI's error shape: {"error": {"message", "type", "param", "code"}}.
      ObjectNode error = Json.object();
      error
          .putObject("error")
          .put("message", reply.raw())
          .put("type", "server_error")
          .putNull("param")
          .putNull("code");
      FakeOllama.sendError(ex, reply.failureStatus(), error.toString());
      return;
    }
    ex.getResponseHeaders().add("Content-Type", "text/event-stream");
    ex.sendResponseHeaders(200, 0);
    try (OutputStream out = ex.getResponseBody()) {
      if (reply.raw() != null) {
        out.write(reply.raw().getBytes(StandardCharsets.UTF_8));
        return;
      }
      boolean first = true;
      for (String chunk : reply.chunks()) {
        ObjectNode delta = Json.object();
        if (first) delta.put("role", "assistant");
        first = false;
        delta.put("content", chunk);
        event(out, chunk(delta, null));
        if (!reply.delayPerChunk().isZero()) Thread.sleep(reply.delayPerChunk().toMillis());
      }
      List<ObjectNode> calls = reply.toolCalls();
      for (int i = 0; i < calls.size(); i++) {
        JsonNode fn = calls.get(i).path("function");
        String args = fn.path("arguments").isTextual()
            ? fn.path("arguments").asText()
            : fn.path("arguments").toString();
        // The name and id come first with empty arguments; the arguments follow in two pieces.
        ObjectNode head = Json.object();
        ObjectNode call = head.putArray("tool_calls").addObject();
        call.put("index", i).put("id", "call_" + i).put("type", "function");
        call.putObject("function").put("name", fn.path("name").asText()).put("arguments", "");
        event(out, chunk(head, null));
        int half = args.length() / 2;
        for (String piece : List.of(args.substring(0, half), args.substring(half))) {
          ObjectNode more = Json.object();
          more.putArray("tool_calls")
              .addObject()
              .put("index", i)
              .putObject("function")
              .put("arguments", piece);
          event(out, chunk(more, null));
        }
      }
      event(out, chunk(Json.object(), calls.isEmpty() ? "stop" : "tool_calls"));
      ObjectNode usage = base();
      usage.putArray("choices");
      usage
          .putObject("usage")
          .put("prompt_tokens", 100)
          .put("completion_tokens", 7)
          .put("total_tokens", 107);
      event(out, usage.toString());
      out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the client hung up (Stop)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ObjectNode base() {
    return Json.object()
        .put("id", "chatcmpl-steward")
        .put("object", "chat.completion.chunk")
        .put("created", 1_764_115_200)
        .put("model", MODEL)
        .put("system_fingerprint", "b4500");
  }

  private static String chunk(ObjectNode delta, @Nullable String finishReason) {
    ObjectNode c = base();
    ArrayNode choices = c.putArray("choices");
    ObjectNode choice = choices.addObject().put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) choice.putNull("finish_reason");
    else choice.put("finish_reason", finishReason);
    return c.toString();
  }

  private static void event(OutputStream out, String json) throws IOException {
    out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void send(HttpExchange ex, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
