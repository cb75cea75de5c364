package dev.steward.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  @Test
  void key_order_and_whitespace_never_change_the_hash() throws Exception {
    var a = Json.parse("{\"path\":\"~/x\",\"content\":\"hi\",\"nested\":{\"b\":1,\"a\":[1,2]}}");
    var b = Json.parse(
        "{ \"nested\" : { \"a\" : [ 1 , 2 ] , \"b\" : 1 } ,\n \"content\":\"hi\", \"path\":\"~/x\" }");
    assertEquals(CanonicalJson.sha256(a), CanonicalJson.sha256(b));
    assertEquals(
        "{\"content\":\"hi\",\"nested\":{\"a\":[1,2],\"b\":1},\"path\":\"~/x\"}",
        CanonicalJson.write(b));
  }

  @Test
  void numbers_have_one_spelling() throws Exception {
    assertEquals(
        CanonicalJson.write(Json.parse("{\"n\":1}")),
        CanonicalJson.write(Json.parse("{\"n\":1.0}")));
    assertEquals(
        CanonicalJson.write(Json.parse("{\"n\":1}")),
        CanonicalJson.write(Json.parse("{\"n\":1e0}")));
    assertEquals("{\"n\":0.5}", CanonicalJson.write(Json.parse("{\"n\":5e-1}")));
    assertEquals("{\"n\":0}", CanonicalJson.write(Json.parse("{\"n\":-0.0}")));
  }

  @Test
  void different_values_hash_differently() throws Exception {
    assertNotEquals(
        CanonicalJson.sha256(Json.parse("{\"a\":\"1\"}")),
        CanonicalJson.sha256(Json.parse("{\"a\":1}")));
    assertNotEquals(
        CanonicalJson.sha256(Json.parse("{\"a\":[1,2]}")),
        CanonicalJson.sha256(Json.parse("{\"a\":[2,1]}")));
  }

  @Test
  void unicode_and_escapes_are_kept_exactly() throws Exception {
    var node = Json.parse("{\"t\":\"caf\\u00e9 \\n \\u001b[31m\"}");
    assertEquals(node, Json.parse(CanonicalJson.write(node)));
  }

  @Test
  void duplicate_keys_and_deep_nesting_are_refused_by_the_parser() {
    assertThrows(JsonProcessingException.class, () -> Json.parse("{\"a\":1,\"a\":2}"));
    String deep = "[".repeat(Json.MAX_NESTING_DEPTH + 5) + "]".repeat(Json.MAX_NESTING_DEPTH + 5);
    assertThrows(JsonProcessingException.class, () -> Json.parse(deep));
  }

  /**
   * What the service sends is read without the repeated-key check (it costs a tenth of reading a
   * big listing, and the service never repeats one); nesting stays bounded, from a string or a
   * stream, and requests are still checked.
   */
  @Test
  void frames_from_the_service_skip_the_repeat_check_only() throws Exception {
    String repeated = "{\"a\":1,\"a\":2}";
    assertEquals(2, Json.parseFromService(repeated).get("a").asInt());
    assertEquals(
        2, Json.parseFromService(new java.io.StringReader(repeated)).get("a").asInt());
    assertThrows(JsonProcessingException.class, () -> Json.parse(repeated));
    assertThrows(JsonProcessingException.class, () -> Json.strictMapper().readTree(repeated));
    String deep = "[".repeat(Json.MAX_NESTING_DEPTH + 5) + "]".repeat(Json.MAX_NESTING_DEPTH + 5);
    assertThrows(JsonProcessingException.class, () -> Json.parseFromService(deep));
    assertThrows(
        JsonProcessingException.class, () -> Json.parseFromService(new java.io.StringReader(deep)));
    assertThrows(
        java.io.IOException.class, () -> Json.parseFromService(new java.io.StringReader("")));
  }
}
