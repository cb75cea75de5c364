package dev.steward.protocol.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.Message;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.Response;
import java.nio.CharBuffer;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Messages in pieces are read whole, and everything is handed on in the order it arrived. */
class ArrivalsTest {

  private final ExecutorService parsers = Executors.newCachedThreadPool();
  private final LinkedBlockingQueue<Message> delivered = new LinkedBlockingQueue<>();
  private final Arrivals arrivals = new Arrivals(parsers, delivered::addAll);

  @AfterEach
  void stop() {
    parsers.shutdownNow();
  }

  private static String bigResponse(int id, int entries) {
    ObjectNode root = Json.object().put("jsonrpc", "2.0").put("id", id);
    ArrayNode list =
        root.putObject("result").put("ok", true).putObject("value").putArray("entries");
    for (int i = 0; i < entries; i++) {
      list.addObject().put("path", "/home/ann/é/" + i + "😀.txt").put("size", i);
    }
    return Json.write(root);
  }

  private static String notification(int n) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"tool.progress\",\"params\":{\"n\":" + n + "}}";
  }

  /** Feeds a message in pieces of random sizes (a surrogate pair may be cut in two, as a socket may). */
  private void inPieces(String text, Random random) {
    int at = 0;
    while (at < text.length()) {
      int end = Math.min(text.length(), at + 1 + random.nextInt(4096));
      arrivals.text(CharBuffer.wrap(text, at, end), end == text.length());
      at = end;
    }
  }

  private Message next() throws InterruptedException {
    Message m = delivered.poll(10, TimeUnit.SECONDS);
    assertTrue(m != null, "nothing delivered within 10 s");
    return m;
  }

  @Test
  void a_message_in_pieces_reads_as_the_same_message_whole() throws Exception {
    Random random = new Random(5);
    for (int round = 0; round < 20; round++) {
      String text = bigResponse(round, 1 + random.nextInt(2000));
      inPieces(text, random);
      Response r = assertInstanceOf(Response.class, next());
      assertEquals(Json.parse(text).get("result"), r.result());
    }
  }

  @Test
  void what_arrives_after_a_big_message_waits_for_it() throws Exception {
    Random random = new Random(7);
    inPieces(bigResponse(1, 20_000), random);
    for (int i = 0; i < 50; i++) arrivals.text(notification(i), true);
    inPieces(bigResponse(2, 5_000), random);
    arrivals.text(notification(50), true);

    assertEquals(1, ((Response) next()).id().asInt());
    for (int i = 0; i < 50; i++)
      assertEquals(i, ((Notification) next()).params().get("n").asInt());
    assertEquals(2, ((Response) next()).id().asInt());
    assertEquals(50, ((Notification) next()).params().get("n").asInt());
  }

  @Test
  void a_message_cut_short_by_a_closed_connection_is_dropped_and_the_reader_is_let_go()
      throws Exception {
    String text = bigResponse(3, 3_000);
    arrivals.text(text.substring(0, text.length() / 2), false);
    arrivals.broken();
    arrivals.text(notification(1), true); // a new connection's first message
    assertEquals(1, ((Notification) next()).params().get("n").asInt());
    assertEquals(null, delivered.poll(200, TimeUnit.MILLISECONDS));
  }

  @Test
  void an_unreadable_message_in_pieces_does_not_stop_the_ones_after_it() throws Exception {
    arrivals.text("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":", false);
    arrivals.text("{oops", false);
    arrivals.text("}}", true);
    arrivals.text(notification(9), true);
    assertEquals(9, ((Notification) next()).params().get("n").asInt());
  }
}
