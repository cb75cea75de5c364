package dev.steward.protocol.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CountedTest {

  @Test
  void one_takes_the_singular_and_every_other_count_the_plural() {
    assertEquals("1 entry", Counted.of(1, "entry", "entries"));
    assertEquals("0 entries", Counted.of(0, "entry", "entries"));
    assertEquals("2 entries", Counted.of(2, "entry", "entries"));
    assertEquals("-1 bytes", Counted.of(-1, "byte", "bytes"));
    assertEquals("12345 bytes", Counted.of(12_345, "byte", "bytes"));
  }
}
