package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The array is its items in the order they were added, whether they follow on in one array or not. */
class JsonRangesTest {

  @Test
  void no_items_is_an_empty_array() throws Exception {
    assertWritten(new JsonRanges(), "[]");
  }

  @Test
  void one_item_loses_its_comma() throws Exception {
    byte[] a = "{\"a\":1},".getBytes(StandardCharsets.UTF_8);
    JsonRanges r = new JsonRanges();
    r.add(a, 0, a.length);
    assertWritten(r, "[{\"a\":1}]");
  }

  @Test
  void items_from_several_arrays_in_any_order_come_out_as_added() throws Exception {
    Random random = new Random(5);
    for (int round = 0; round < 50; round++) {
      // a few "slabs" of items back to back, as walking threads write them
      List<byte[]> slabs = new ArrayList<>();
      List<int[]> items = new ArrayList<>(); // slab, from, to
      for (int s = 0; s < 1 + random.nextInt(4); s++) {
        StringBuilder slab = new StringBuilder();
        for (int i = 0; i < 1 + random.nextInt(30); i++) {
          int from = slab.length();
          slab.append("{\"s\":")
              .append(s)
              .append(",\"i\":")
              .append(i)
              .append(",\"é\":\"")
              .append("x".repeat(random.nextInt(5)))
              .append("\"},");
          items.add(new int[] {s, from, slab.length()});
        }
        slabs.add(slab.toString().getBytes(StandardCharsets.ISO_8859_1));
      }
      // taken in runs that sometimes follow on and sometimes jump between slabs
      List<int[]> order = new ArrayList<>();
      int at = 0;
      while (at < items.size()) {
        int run = 1 + random.nextInt(5);
        List<int[]> chunk = items.subList(at, Math.min(items.size(), at + run));
        order.addAll(random.nextBoolean() ? chunk : new ArrayList<>(chunk));
        at += run;
      }
      java.util.Collections.shuffle(
          order.subList(0, order.size() / 2), random); // part out of order: no merging there
      JsonRanges r = new JsonRanges();
      List<String> expected = new ArrayList<>();
      for (int[] item : order) {
        byte[] slab = slabs.get(item[0]);
        r.add(slab, item[1], item[2]);
        expected.add(new String(slab, item[1], item[2] - item[1] - 1, StandardCharsets.ISO_8859_1));
      }
      assertWritten(r, "[" + String.join(",", expected) + "]");
    }
  }

  /** A listing in a value goes straight into a byte stream, as text through a writer, and into a tree: the same JSON each way. */
  @Test
  void a_listing_in_a_value_is_the_same_json_as_bytes_as_text_and_as_a_tree() throws Exception {
    byte[] slab = "{\"name\":\"caf\u00e9\"},{\"name\":\"b\"},".getBytes(StandardCharsets.UTF_8);
    int split = "{\"name\":\"caf\u00e9\"},".getBytes(StandardCharsets.UTF_8).length;
    JsonRanges r = new JsonRanges();
    r.add(slab, split, slab.length); // out of order: two ranges
    r.add(slab, 0, split);
    com.fasterxml.jackson.databind.node.ObjectNode value = dev.steward.protocol.json.Json.object();
    value.putPOJO("entries", new Entries.Listed(r, 2));
    value.put("truncated", false);
    String expected =
        "{\"entries\":[{\"name\":\"b\"},{\"name\":\"caf\u00e9\"}],\"truncated\":false}";
    java.nio.ByteBuffer utf8 = dev.steward.protocol.json.Json.writeUtf8(value);
    assertEquals(expected, StandardCharsets.UTF_8.decode(utf8).toString());
    assertEquals(expected, dev.steward.protocol.json.Json.write(value));
    assertEquals(
        expected,
        dev.steward.protocol.json.Json.write(
            dev.steward.protocol.json.Json.mapper().valueToTree(value)));
  }

  private static void assertWritten(JsonRanges r, String expected) throws Exception {
    byte[] bytes = expected.getBytes(StandardCharsets.ISO_8859_1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r.writeTo(out);
    assertEquals(expected, out.toString(StandardCharsets.ISO_8859_1));
    assertEquals(expected, new String(r.toBytes(), StandardCharsets.ISO_8859_1));
    assertEquals(bytes.length, r.length());
  }
}
