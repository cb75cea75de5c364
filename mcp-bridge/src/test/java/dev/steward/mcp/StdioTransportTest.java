package dev.steward.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.mcp.front.McpTools;
import dev.steward.protocol.json.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge's stdio transport under the SDK's server: one thread reads while calls run, a call's
 * answer is written on the thread it is made on, and a line that is not a message is answered, not
 * fatal.
 */
class StdioTransportTest {

  private final BlockingQueue<byte[]> toServer = new LinkedBlockingQueue<>();
  private final BlockingQueue<JsonNode> fromServer = new LinkedBlockingQueue<>();
  private final CountDownLatch release = new CountDownLatch(1);
  /** The answer of the "arrives" tool, completed by a test on a thread of its own. */
  private final java.util.concurrent.CompletableFuture<McpSchema.CallToolResult> arriving =
      new java.util.concurrent.CompletableFuture<>();

  private McpSyncServer server;
  private StdioTransport transport;

  @BeforeEach
  void start() throws Exception {
    McpSchema.JsonSchema anything =
        new McpSchema.JsonSchema("object", Map.of(), null, null, null, null);
    transport = new StdioTransport(
        McpJsonDefaults.getMapper(), new QueueInput(toServer), new LineOutput(fromServer), 200);
    server = McpServer.sync(transport)
        .serverInfo("test", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(
            tool("wait", anything, () -> {
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return "waited";
            }),
            tool("quick", anything, () -> "quick"),
            new McpServerFeatures.SyncToolSpecification(
                McpSchema.Tool.builder().name("progress").inputSchema(anything).build(),
                (exchange, request) -> {
                  for (int i = 1; i <= 3; i++)
                    exchange.progressNotification(
                        new McpSchema.ProgressNotification("t", i, 3.0, "step " + i));
                  return McpSchema.CallToolResult.builder()
                      .addTextContent("done")
                      .build();
                }))
        .build();
    send(INITIALIZE);
    assertEquals(1, next().path("id").asInt());
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    // As the bridge's tools are: the call sent on, its answer made where it arrives.
    server
        .getAsyncServer()
        .addTool(new McpServerFeatures.AsyncToolSpecification(
            McpSchema.Tool.builder().name("arrives").inputSchema(anything).build(),
            (exchange, request) -> reactor.core.publisher.Mono.fromFuture(arriving)))
        .block();
    assertEquals("notifications/tools/list_changed", next().path("method").asText());
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  private static McpServerFeatures.SyncToolSpecification tool(
      String name, McpSchema.JsonSchema schema, java.util.function.Supplier<String> run) {
    return new McpServerFeatures.SyncToolSpecification(
        McpSchema.Tool.builder().name(name).inputSchema(schema).build(),
        (exchange, request) ->
            McpSchema.CallToolResult.builder().addTextContent(run.get()).build());
  }

  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  @Test
  void a_gated_transport_answers_initialize_and_reads_the_rest_once_opened() throws Exception {
    BlockingQueue<byte[]> in = new LinkedBlockingQueue<>();
    BlockingQueue<JsonNode> out = new LinkedBlockingQueue<>();
    java.util.List<McpSchema.JSONRPCMessage> seen =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    StdioTransport gated = StdioTransport.gated(
        McpJsonDefaults.getMapper(), new QueueInput(in), new LineOutput(out), m -> {
          seen.add(m);
          return m;
        });
    McpSyncServer other = McpServer.sync(gated)
        .serverInfo("test", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .build();
    try {
      // In one write, as a client may send them.
      in.add((INITIALIZE
              + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
              + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n")
          .getBytes(StandardCharsets.UTF_8));
      JsonNode first = out.poll(10, TimeUnit.SECONDS);
      assertEquals(1, first == null ? -1 : first.path("id").asInt(), "initialize at once");
      assertEquals(null, out.poll(300, TimeUnit.MILLISECONDS), "nothing more before it opens");
      assertEquals(1, seen.size(), "only the first message read");
      gated.open();
      JsonNode ping = out.poll(10, TimeUnit.SECONDS);
      assertEquals(2, ping == null ? -1 : ping.path("id").asInt());
      assertEquals(3, seen.size(), "each message passed through inbound");
    } finally {
      other.close();
    }
  }

  private void send(String line) {
    toServer.add((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private JsonNode next() throws InterruptedException {
    JsonNode n = fromServer.poll(10, TimeUnit.SECONDS);
    if (n == null) throw new AssertionError("no message from the server within 10 s");
    return n;
  }

  private static String call(int id, String tool) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":{}}}";
  }

  @Test
  void aCallThatWaitsHoldsUpNoOther() throws Exception {
    send(call(2, "wait"));
    send(call(3, "quick"));
    send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
    JsonNode first = next();
    JsonNode second = next();
    assertEquals(
        java.util.Set.of(3, 4),
        java.util.Set.of(first.path("id").asInt(), second.path("id").asInt()));
    assertTrue(fromServer.isEmpty(), "the waiting call has not answered");
    release.countDown();
    JsonNode waited = next();
    assertEquals(2, waited.path("id").asInt());
    assertEquals("waited", waited.at("/result/content/0/text").asText());
  }

  @Test
  void callsOneAfterAnotherAreAnsweredInTurn() throws Exception {
    release.countDown();
    for (int i = 10; i < 60; i++) {
      send(call(i, i % 2 == 0 ? "quick" : "wait"));
      JsonNode answer = next();
      assertEquals(i, answer.path("id").asInt());
      assertFalse(answer.path("result").path("isError").asBoolean());
    }
  }

  @Test
  void aLineThatIsNoMessageIsAnsweredAndTheNextIsRead() throws Exception {
    send("this is not json");
    JsonNode error = next();
    assertEquals(-32700, error.at("/error/code").asInt());
    assertTrue(error.path("id").isNull());
    send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"pad\":\""
        + "x".repeat(300) + "\"}}");
    assertEquals(-32600, next().at("/error/code").asInt());
    send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}\r");
    assertEquals(6, next().path("id").asInt());
  }

  @Test
  void aCallsProgressIsWrittenBeforeItsAnswer() throws Exception {
    send(call(7, "progress"));
    for (int i = 1; i <= 3; i++)
      assertEquals("notifications/progress", next().path("method").asText(), "step " + i);
    assertEquals(7, next().path("id").asInt());
  }

  @Test
  void callsBeyondTheLimitAreRefusedAtOnceAndReadingGoesOn() throws Exception {
    int over = 14;
    long before = readers(); // this transport's first reader, and other tests' left waiting
    for (int i = 0; i < StdioTransport.MAX_CALLS + over; i++) send(call(100 + i, "wait"));
    send("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}");
    int refused = 0;
    boolean pinged = false;
    for (int i = 0; i < over + 1; i++) {
      JsonNode answer = next();
      if (answer.path("id").asInt() == 99) {
        pinged = true;
      } else {
        assertTrue(answer.at("/result/isError").asBoolean(), answer.toString());
        assertTrue(answer.at("/result/content/0/text").asText().startsWith("UNAVAILABLE"));
        refused++;
      }
    }
    assertTrue(pinged, "a ping is read and answered while the calls wait");
    assertEquals(over, refused);
    long started = readers() - before;
    assertTrue(started <= 0, started + " reading threads started for the calls");
    release.countDown();
    java.util.Set<Integer> answered = new java.util.HashSet<>();
    for (int i = 0; i < StdioTransport.MAX_CALLS; i++) {
      JsonNode answer = next();
      assertFalse(answer.at("/result/isError").asBoolean(), answer.toString());
      answered.add(answer.path("id").asInt());
    }
    assertEquals(StdioTransport.MAX_CALLS, answered.size());
  }

  @Test
  void once_initialized_a_call_goes_by_the_shortcut_where_it_takes_it_and_else_to_the_sdk()
      throws Exception {
    java.util.List<String> taken = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.concurrent.CompletableFuture<String> later =
        new java.util.concurrent.CompletableFuture<>();
    transport.shortcut((session, client, id, params) -> {
      String tool = params.path("name").asText();
      taken.add(tool + " " + client.name() + " " + id + " " + session.isEmpty());
      if (tool.equals("quick")) return null; // left to the SDK
      return later.thenApply(text -> McpTools.answer(id, text));
    });
    send(call(20, "anything"));
    send(call(21, "quick"));
    JsonNode quick = next();
    assertEquals(21, quick.path("id").asInt(), "the shortcut's call waits; the SDK's is answered");
    assertEquals("quick", quick.at("/result/content/0/text").asText());
    later.complete("from the shortcut");
    JsonNode shortcut = next();
    assertEquals(20, shortcut.path("id").asInt());
    assertEquals("from the shortcut", shortcut.at("/result/content/0/text").asText());
    assertEquals(java.util.List.of("anything t 20 false", "quick t 21 false"), taken);
  }

  @Test
  void the_shortcut_takes_no_call_before_the_session_is_initialized() throws Exception {
    BlockingQueue<byte[]> in = new LinkedBlockingQueue<>();
    BlockingQueue<JsonNode> out = new LinkedBlockingQueue<>();
    StdioTransport fresh = new StdioTransport(
        McpJsonDefaults.getMapper(), new QueueInput(in), new LineOutput(out), 200);
    java.util.List<JsonNode> taken = new java.util.concurrent.CopyOnWriteArrayList<>();
    fresh.shortcut((session, client, id, params) -> {
      taken.add(id);
      return java.util.concurrent.CompletableFuture.completedFuture(McpTools.answer(id, "cut"));
    });
    McpSyncServer other = McpServer.sync(fresh)
        .serverInfo("test", "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(tool(
            "quick",
            new McpSchema.JsonSchema("object", Map.of(), null, null, null, null),
            () -> "quick"))
        .build();
    try {
      in.add((INITIALIZE + "\n" + call(2, "quick") + "\n").getBytes(StandardCharsets.UTF_8));
      JsonNode init = out.poll(10, TimeUnit.SECONDS);
      assertEquals(1, init == null ? -1 : init.path("id").asInt());
      out.poll(300, TimeUnit.MILLISECONDS); // the SDK's, whatever it makes of it
      assertTrue(taken.isEmpty(), "not the shortcut's before the session is initialized");
      in.add(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n" + call(3, "quick")
              + "\n")
          .getBytes(StandardCharsets.UTF_8));
      JsonNode cut;
      do {
        cut = out.poll(10, TimeUnit.SECONDS);
      } while (cut != null && cut.path("id").asInt() != 3);
      assertEquals("cut", cut == null ? null : cut.at("/result/content/0/text").asText());
      assertEquals(
          java.util.List.of(com.fasterxml.jackson.databind.node.IntNode.valueOf(3)), taken);
    } finally {
      other.close();
    }
  }

  @Test
  void the_shortcuts_calls_count_against_the_limit() throws Exception {
    java.util.concurrent.CompletableFuture<String> never =
        new java.util.concurrent.CompletableFuture<>();
    transport.shortcut(
        (session, client, id, params) -> never.thenApply(t -> McpTools.answer(id, t)));
    for (int i = 0; i < StdioTransport.MAX_CALLS + 2; i++) send(call(200 + i, "anything"));
    for (int i = 0; i < 2; i++) {
      JsonNode refused = next();
      assertTrue(refused.at("/result/content/0/text").asText().startsWith("UNAVAILABLE"));
    }
    never.complete("done");
    for (int i = 0; i < StdioTransport.MAX_CALLS; i++)
      assertEquals("done", next().at("/result/content/0/text").asText());
  }

  private static long readers() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("steward-mcp-stdio"))
        .count();
  }

  @Test
  void aCallOnTheLastLineIsAnsweredAfterStdinEnds() throws Exception {
    // Its line without an end: the message and the end of stdin come in one read.
    toServer.add(call(8, "wait").getBytes(StandardCharsets.UTF_8));
    toServer.add(new byte[0]); // the end of stdin
    // As the bridge does: the end of input, then what is still running.
    java.util.concurrent.CompletableFuture<Void> finished =
        java.util.concurrent.CompletableFuture.runAsync(() -> {
          try {
            transport.awaitInputEnd();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          transport.finish(java.time.Duration.ofSeconds(10));
        });
    Thread.sleep(200);
    assertFalse(finished.isDone(), "it waits for the running call");
    release.countDown();
    finished.get(10, TimeUnit.SECONDS);
    assertEquals(8, fromServer.poll().path("id").asInt(), "written before finish returns");
  }

  @Test
  void aClientThatStopsReadingHoldsNotTheThreadAnAnswerArrivesOn() throws Exception {
    send(call(11, "arrives"));
    send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}");
    assertEquals(12, next().path("id").asInt(), "read on while the call waits for its answer");
    CountDownLatch reading = new CountDownLatch(1);
    stalled = reading; // the client stops reading stdout
    Thread arrival = new Thread(
        () -> arriving.complete(
            McpSchema.CallToolResult.builder().addTextContent("arrived").build()),
        "the-answer-arrives");
    arrival.start();
    arrival.join(5_000);
    assertFalse(arrival.isAlive(), "the answer's thread went on while stdout was not read");
    reading.countDown();
    JsonNode answer = next();
    assertEquals(11, answer.path("id").asInt());
    assertEquals("arrived", answer.at("/result/content/0/text").asText());
    assertEquals("steward-mcp-stdout", writers.get(11));
  }

  @Test
  void aLastMessageWithoutItsLineEndIsAnswered() throws Exception {
    toServer.add(
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8));
    toServer.add(new byte[0]); // the end of stdin
    assertEquals(9, next().path("id").asInt());
  }

  /** stdin: the bytes put on a queue, in turn; an empty array is its end. */
  private static final class QueueInput extends InputStream {
    private final BlockingQueue<byte[]> queue;
    private byte[] now = new byte[0];
    private int at;
    private boolean ended;

    QueueInput(BlockingQueue<byte[]> queue) {
      this.queue = queue;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      while (at == now.length) {
        if (ended) return -1;
        try {
          now = queue.take();
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
        at = 0;
        if (now.length == 0) ended = true;
      }
      int n = Math.min(len, now.length - at);
      System.arraycopy(now, at, b, off, n);
      at += n;
      return n;
    }
  }

  /** While set, stdout's writes wait for it: a client that does not read. */
  private volatile @org.jspecify.annotations.Nullable CountDownLatch stalled;

  /** The thread that wrote each answer, by its id. */
  private final Map<Integer, String> writers = new java.util.concurrent.ConcurrentHashMap<>();

  /** stdout: each line parsed onto a queue. */
  private final class LineOutput extends OutputStream {
    private final BlockingQueue<JsonNode> queue;
    private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

    LineOutput(BlockingQueue<JsonNode> queue) {
      this.queue = queue;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      CountDownLatch wait = stalled;
      if (wait != null) {
        try {
          wait.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
      }
      if (b != '\n') {
        line.write(b);
        return;
      }
      JsonNode message = Json.parse(line.toString(StandardCharsets.UTF_8));
      if (message.has("id"))
        writers.put(message.path("id").asInt(), Thread.currentThread().getName());
      queue.add(message);
      line.reset();
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
      for (int i = off; i < off + len; i++) write(b[i]);
    }
  }
}
