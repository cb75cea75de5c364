package dev.steward.service.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoInstantTest {

  @Test
  void random_instants_print_exactly_as_the_jdk_prints_them() {
    Random random = new Random(3);
    for (int i = 0; i < 200_000; i++) {
      long seconds =
          random.nextLong() % 400_000_000_000L; // years about -10,700 to 14,600: both fallbacks too
      int nanos = switch (random.nextInt(4)) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant t = Instant.ofEpochSecond(seconds, nanos);
      assertEquals(t.toString(), IsoInstant.format(seconds, nanos), () -> seconds + " " + nanos);
      assertEquals(t.toString(), IsoInstant.format(FileTime.from(t)));
      char[] out = new char[IsoInstant.MAX_CHARS];
      int n = IsoInstant.formatTo(out, seconds, nanos);
      if (n > 0) assertEquals(t.toString(), new String(out, 0, n));
      else assertTrue(t.toString().startsWith("+") || t.toString().startsWith("-"), t::toString);
    }
  }

  @Test
  void edges_of_days_months_leap_years_and_the_supported_range() {
    long[] edges = {
      0,
      -1,
      86_399,
      86_400,
      951_782_400L /* 2000-02-29 */,
      951_868_799L,
      4_107_542_399L /* 2100-02-28T23:59:59 */,
      -2_208_988_800L /* 1900 */,
      -62_167_219_200L,
      -62_167_219_201L,
      253_402_300_799L,
      253_402_300_800L,
      1_709_164_800L
    };
    for (long s : edges) {
      for (int nanos : new int[] {0, 1, 999_999_999, 500_000_000, 123_000}) {
        assertEquals(
            Instant.ofEpochSecond(s, nanos).toString(),
            IsoInstant.format(s, nanos),
            () -> s + " " + nanos);
      }
    }
  }
}
