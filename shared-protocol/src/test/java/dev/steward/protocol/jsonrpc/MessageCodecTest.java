package dev.steward.protocol.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.steward.protocol.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MessageCodecTest {

  private static int errorCode(String frame) {
    MessageCodec.Frame f = MessageCodec.parse(frame);
    assertEquals(1, f.items().size());
    MessageCodec.Invalid invalid =
        assertInstanceOf(MessageCodec.Invalid.class, f.items().get(0));
    return invalid.response().error().code();
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{not json | -32700",
        "'' | -32700",
        "[] | -32600",
        "42 | -32600",
        "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":3} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"extra\":3} | -32600",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"m\"} | -32700",
      })
  void malformed_frames_get_the_standard_error(String frame, int code) {
    assertEquals(code, errorCode(frame));
  }

  @Test
  void an_invalid_request_keeps_its_id_when_the_id_is_readable() {
    MessageCodec.Frame f = MessageCodec.parse("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":7}");
    var invalid = (MessageCodec.Invalid) f.items().get(0);
    assertEquals(TextNode.valueOf("abc"), invalid.response().id());
  }

  @Test
  void a_batch_reads_each_element_on_its_own() {
    MessageCodec.Frame f = MessageCodec.parse(
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"n\"},5]");
    assertTrue(f.batch());
    assertInstanceOf(Request.class, ((MessageCodec.Valid) f.items().get(0)).message());
    assertInstanceOf(Notification.class, ((MessageCodec.Valid) f.items().get(1)).message());
    assertInstanceOf(MessageCodec.Invalid.class, f.items().get(2));
  }

  @Test
  void string_and_integer_ids_round_trip() throws Exception {
    for (var id : List.of(TextNode.valueOf("x-1"), LongNode.valueOf(Long.MAX_VALUE))) {
      String text = MessageCodec.write(new Request(id, "m", Json.object()));
      var parsed =
          (Request) ((MessageCodec.Valid) MessageCodec.parse(text).items().get(0)).message();
      assertEquals(id.asText(), parsed.id().asText());
      assertFalse(MessageCodec.parse(text).batch());
    }
  }

  @Test
  void responses_carry_exactly_one_of_result_and_error() throws Exception {
    String ok = MessageCodec.write(Response.result(LongNode.valueOf(1), TextNode.valueOf("r")));
    String err = MessageCodec.write(Response.error(null, RpcError.of(-32601, "nope")));
    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"r\"}", ok);
    assertEquals(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32601,\"message\":\"nope\"}}", err);
    var back = (Response) MessageCodec.parseFromServer(err).get(0);
    assertEquals(-32601, back.error().code());
  }

  @Test
  void written_text_escapes_lone_surrogates_so_any_string_can_be_sent_and_reads_back_the_same()
      throws Exception {
    String value = "ok 𝄞 lone \ud800 low \udc00 end \u0000";
    String text =
        MessageCodec.write(new Request(LongNode.valueOf(7), "m", Json.object().put("v", value)));
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        assertTrue(i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1)), text);
        i++;
      } else {
        assertFalse(Character.isLowSurrogate(c), text);
      }
    }
    Request back =
        (Request) ((MessageCodec.Valid) MessageCodec.parse(text).items().get(0)).message();
    assertEquals(value, back.params().get("v").asText());
  }

  /**
   * Answers of every size read back exactly as UTF-8 — among them a raw value of hundreds of KB
   * written in one piece (how a listing's entries go), followed by the message's tail.
   */
  @ParameterizedTest(name = "{0} entries")
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 40, 2_000, 20_000})
  void answers_of_any_size_are_written_whole_as_utf8(int entries) throws Exception {
    StringBuilder raw = new StringBuilder("[");
    for (int i = 0; i < entries; i++)
      raw.append(i == 0 ? "" : ",").append("{\"path\":\"/home/ann/é/").append(i).append("\"}");
    String array = raw.append(']').toString();
    var value = listing(
        gen -> gen.writeRawValue(new com.fasterxml.jackson.core.io.SerializedString(array)), false);
    java.nio.ByteBuffer utf8 =
        MessageCodec.writeUtf8(Response.result(LongNode.valueOf(7), Json.pojo(value)));
    String text = java.nio.charset.StandardCharsets.UTF_8.decode(utf8).toString();
    var back = Json.parse(text);
    assertEquals(7, back.get("id").asInt());
    assertEquals(Json.parse(array), back.at("/result/entries"));
    assertFalse(back.at("/result/truncated").asBoolean());
    assertTrue(text.endsWith("\"truncated\":false}}"), "the tail follows the big value");
  }

  /**
   * A value written in pieces straight into the message's stream (how a listing's entries go,
   * from where the walk wrote them) after asking for room: whole, and the buffer grown once.
   */
  @ParameterizedTest(name = "{0} entries")
  @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2_000, 20_000})
  void a_value_written_in_pieces_after_asking_for_room_is_whole_and_grows_the_buffer_once(
      int entries) throws Exception {
    java.util.List<byte[]> pieces = new java.util.ArrayList<>();
    long length = 2;
    for (int i = 0; i < entries; i++) {
      byte[] piece = ((i == 0 ? "" : ",") + "{\"path\":\"/home/ann/é/" + i + "\"}")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      pieces.add(piece);
      length += piece.length;
    }
    long room = length;
    var value = listing(
        gen -> {
          gen.writeRawValue("");
          gen.flush();
          java.io.OutputStream out = (java.io.OutputStream) gen.getOutputTarget();
          ((dev.steward.protocol.json.SizedOutput) out).makeRoom(room);
          out.write('[');
          for (byte[] piece : pieces) out.write(piece);
          out.write(']');
        },
        true);
    java.nio.ByteBuffer utf8 =
        MessageCodec.writeUtf8(Response.result(LongNode.valueOf(8), Json.pojo(value)));
    assertTrue(
        utf8.capacity() <= utf8.limit() + 16 * 1024,
        "grown once to the value's size and a tail, not doubled: " + utf8.capacity() + " for "
            + utf8.limit());
    String text = java.nio.charset.StandardCharsets.UTF_8.decode(utf8).toString();
    var back = Json.parse(text);
    assertEquals(entries, back.at("/result/entries").size());
    assertEquals(
        "/home/ann/é/" + (entries - 1),
        back.at("/result/entries/" + (entries - 1) + "/path").asText());
    assertTrue(back.at("/result/truncated").asBoolean());
  }

  private interface EntriesWriter {
    void write(com.fasterxml.jackson.core.JsonGenerator gen) throws java.io.IOException;
  }

  /** A listing-shaped value, {@code {entries, truncated}}, whose entries {@code entries} writes as a listing does. */
  private static com.fasterxml.jackson.databind.JsonSerializable listing(
      EntriesWriter entries, boolean truncated) {
    return new com.fasterxml.jackson.databind.JsonSerializable.Base() {
      @Override
      public void serialize(
          com.fasterxml.jackson.core.JsonGenerator gen,
          com.fasterxml.jackson.databind.SerializerProvider p)
          throws java.io.IOException {
        gen.writeStartObject();
        gen.writeFieldName("entries");
        entries.write(gen);
        gen.writeBooleanField("truncated", truncated);
        gen.writeEndObject();
      }

      @Override
      public void serializeWithType(
          com.fasterxml.jackson.core.JsonGenerator gen,
          com.fasterxml.jackson.databind.SerializerProvider p,
          com.fasterxml.jackson.databind.jsontype.TypeSerializer t)
          throws java.io.IOException {
        serialize(gen, p);
      }
    };
  }
}
