package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A flood of refusals is a few rows, and none goes unsaid. */
class RefusalTallyTest {

  private final List<String> rows = new ArrayList<>();
  private final RefusalTally tally =
      new RefusalTally((code, message) -> rows.add(code + " " + message));

  @Test
  void theFirstIsWrittenAtOnceAndTheRestCountedIntoOneRowAWhile() {
    long now = 0;
    tally.refused(1, "slow down", 1, now);
    for (int i = 0; i < 1_000; i++) tally.refused(1, "slow down", 1, now += 1_000_000);
    assertEquals(List.of("1 slow down"), rows, "a second of refusals, no row more yet");
    tally.refused(1, "slow down", 1, now + RefusalTally.EVERY_NANOS);
    assertEquals("1 slow down (1001 messages refused)", rows.get(1));
    tally.refused(1, "slow down", 5, now + RefusalTally.EVERY_NANOS + 1);
    tally.flush(now + RefusalTally.EVERY_NANOS + 2);
    assertEquals("1 slow down (5 messages refused)", rows.get(2), "what is left, at the close");
    tally.flush(now + RefusalTally.EVERY_NANOS + 3);
    assertEquals(3, rows.size(), "nothing left: no row");
  }

  @Test
  void anotherKindOfRefusalWritesWhatWasCountedFirst() {
    tally.refused(1, "slow down", 1, 0);
    tally.refused(1, "slow down", 3, 1);
    tally.refused(2, "too many calls", 1, 2);
    assertEquals(List.of("1 slow down", "1 slow down (3 messages refused)"), rows);
    tally.flush(3);
    assertEquals("2 too many calls", rows.get(2));
  }
}
