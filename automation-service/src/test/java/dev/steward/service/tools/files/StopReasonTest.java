package dev.steward.service.tools.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StopReasonTest {

  @Test
  void eachCodeAWalkStopsWithIsSaidInWords() {
    assertEquals("stopped at the result limit", StopReason.inWords("max_results"));
    assertEquals("stopped at the entry limit", StopReason.inWords("max_entries"));
    assertEquals("stopped at the size limit", StopReason.inWords("max_bytes"));
    assertEquals("stopped at the time limit", StopReason.inWords("time_limit"));
    assertEquals("stopped: cancelled", StopReason.inWords("cancelled"));
    assertEquals("stopped: something_new", StopReason.inWords("something_new"));
  }
}
