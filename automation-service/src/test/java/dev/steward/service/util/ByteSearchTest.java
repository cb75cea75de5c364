package dev.steward.service.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteSearchTest {

  private static int naive(byte[] a, int from, int to, byte[] needle) {
    outer:
    for (int i = from; i + needle.length <= to; i++) {
      for (int j = 0; j < needle.length; j++) if (a[i + j] != needle[j]) continue outer;
      return i;
    }
    return -1;
  }

  @Test
  void single_bytes_are_found_where_a_plain_loop_finds_them() {
    Random random = new Random(7);
    for (int round = 0; round < 20_000; round++) {
      byte[] a = new byte[random.nextInt(40)];
      for (int i = 0; i < a.length; i++)
        a[i] = (byte) random.nextInt(4); // few values: many hits, many zeros and ones
      int from = a.length == 0 ? 0 : random.nextInt(a.length + 1);
      int to = from + random.nextInt(a.length - from + 1);
      byte b = (byte) random.nextInt(4);
      assertEquals(
          naive(a, from, to, new byte[] {b}),
          ByteSearch.indexOf(a, from, to, b),
          () -> java.util.Arrays.toString(a));
    }
  }

  @Test
  void ascii_is_told_from_any_byte_with_the_high_bit_wherever_it_sits() {
    Random random = new Random(5);
    for (int round = 0; round < 20_000; round++) {
      byte[] a = new byte[random.nextInt(40)];
      for (int i = 0; i < a.length; i++) a[i] = (byte) random.nextInt(128);
      if (a.length > 0 && random.nextBoolean())
        a[random.nextInt(a.length)] = (byte) (0x80 | random.nextInt(128));
      int from = a.length == 0 ? 0 : random.nextInt(a.length + 1);
      int to = from + random.nextInt(a.length - from + 1);
      boolean ascii = true;
      for (int i = from; i < to; i++) ascii &= a[i] >= 0;
      assertEquals(ascii, ByteSearch.isAscii(a, from, to), () -> java.util.Arrays.toString(a));
    }
  }

  @Test
  void needles_are_found_where_a_plain_loop_finds_them() {
    Random random = new Random(11);
    for (int round = 0; round < 50_000; round++) {
      byte[] a = new byte[random.nextInt(60)];
      for (int i = 0; i < a.length; i++)
        a[i] = (byte) (random.nextInt(3) - 1); // -1, 0, 1: borrows across bytes
      byte[] needle = new byte[1 + random.nextInt(5)];
      for (int i = 0; i < needle.length; i++) needle[i] = (byte) (random.nextInt(3) - 1);
      int from = a.length == 0 ? 0 : random.nextInt(a.length + 1);
      int to = from + random.nextInt(a.length - from + 1);
      assertEquals(
          naive(a, from, to, needle),
          ByteSearch.indexOf(a, from, to, needle),
          () -> java.util.Arrays.toString(a) + " " + java.util.Arrays.toString(needle) + " " + from
              + ".." + to);
    }
  }

  @Test
  void a_needle_at_the_very_end_is_found() {
    byte[] a = ("x".repeat(100) + "needle").getBytes(StandardCharsets.US_ASCII);
    assertEquals(
        100, ByteSearch.indexOf(a, 0, a.length, "needle".getBytes(StandardCharsets.US_ASCII)));
    assertEquals(
        -1, ByteSearch.indexOf(a, 0, a.length - 1, "needle".getBytes(StandardCharsets.US_ASCII)));
  }
}
