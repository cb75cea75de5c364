package dev.steward.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

  @Test
  void what_it_prints_reads_back_and_any_other_text_is_read_as_the_jdk_reads_it() {
    Random random = new Random(5);
    for (int i = 0; i < 200_000; i++) {
      long seconds = random.nextLong() % 400_000_000_000L;
      int nanos = random.nextBoolean() ? 0 : random.nextInt(1_000_000_000);
      String text = Instant.ofEpochSecond(seconds, nanos).toString();
      Instant read = IsoInstant.parse(text);
      if (text.startsWith("+") || text.startsWith("-")) assertEquals(null, read, text);
      else assertEquals(Instant.ofEpochSecond(seconds, nanos), read, text);
      // One character changed, or the fraction made shorter: either not taken, or read as the
      // JDK reads it.
      char[] changed = text.toCharArray();
      changed[random.nextInt(changed.length)] = "0123456789:-.TZtz+x".charAt(random.nextInt(19));
      for (String other :
          new String[] {new String(changed), text.replaceFirst("(\\.\\d{1,8})\\d+Z$", "$1Z")}) {
        Instant ours = IsoInstant.parse(other);
        Instant jdks;
        try {
          jdks = Instant.parse(other);
        } catch (java.time.format.DateTimeParseException e) {
          jdks = null;
        }
        if (ours != null) assertEquals(jdks, ours, other);
      }
    }
  }

  @Test
  void days_that_do_not_exist_and_shapes_it_does_not_take_are_left_to_the_jdk() {
    for (String text : new String[] {
      "2023-02-29T00:00:00Z",
      "2100-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-11-28T24:00:00Z",
      "2026-11-28T23:59:60Z",
      "2026-11-28T06:23:27.Z",
      "2026-11-28T06:23:27.1234567890Z",
      "2026-11-28t06:23:27z",
      "2026-11-28T06:23:27+01:00",
      "2026-11-28T06:23:27"
    }) {
      assertEquals(null, IsoInstant.parse(text), text);
    }
    assertEquals(
        Instant.parse("2000-02-29T23:59:59.5Z"), IsoInstant.parse("2000-02-29T23:59:59.5Z"));
    assertEquals(Instant.parse("0000-01-01T00:00:00Z"), IsoInstant.parse("0000-01-01T00:00:00Z"));
  }

  @Test
  void the_protocols_mapper_writes_and_reads_instants_as_the_time_module_does() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper jdks =
        com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .addModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
            .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      Instant t = Instant.ofEpochSecond(
          random.nextLong() % 400_000_000_000L, random.nextInt(3) * random.nextInt(1_000_000_000));
      assertEquals(jdks.writeValueAsString(t), Json.write(t));
      assertEquals(t, Json.mapper().readValue(Json.write(t), Instant.class));
    }
    for (String json : new String[] {
      "\"2026-11-28T06:23:27.5+01:00\"", "1764311007.25", "\"2026-11-28t06:23:27z\"", "0"
    }) {
      assertEquals(
          jdks.readValue(json, Instant.class), Json.mapper().readValue(json, Instant.class), json);
    }
    assertThrows(
        com.fasterxml.jackson.databind.JsonMappingException.class,
        () -> Json.mapper().readValue("\"2026-13-01T00:00:00Z\"", Instant.class));
  }
}
