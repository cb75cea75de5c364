package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RelistPaceTest {

  private static final long S = TimeUnit.SECONDS.toNanos(1);

  @Test
  void a_server_that_keeps_saying_its_tools_changed_is_listed_ever_more_seldom() {
    RelistPace pace = new RelistPace();
    long now = 0;
    assertEquals(500, pace.next(now));
    long[] waits = new long[8];
    for (int i = 0; i < waits.length; i++) {
      pace.listed(now);
      now += S / 10;
      waits[i] = pace.next(now);
    }
    assertEquals(1_000, waits[0]);
    assertEquals(2_000, waits[1]);
    assertEquals(RelistPace.LONGEST_MS, waits[7], "never longer than half a minute");
  }

  @Test
  void a_change_after_a_quiet_while_is_listed_soon_again() {
    RelistPace pace = new RelistPace();
    pace.next(0);
    pace.listed(0);
    assertEquals(1_000, pace.next(S));
    pace.listed(2 * S);
    assertEquals(RelistPace.FIRST_MS, pace.next(20 * S));
  }
}
