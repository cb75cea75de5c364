package dev.steward.service.util;

import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * {@link Instant#toString()} without the general date formatter: a listing prints a time for every
 * entry, and the formatter was a fifth of the cost of sending a big listing. The text is exactly
 * {@code Instant.toString()}'s (UTC, the fraction in groups of three digits, none when zero); years
 * outside 0–9999 are left to the JDK.
 */
public final class IsoInstant {

  private static final long DAYS_0000_TO_1970 = 719_528L;
  private static final long MAX_SECONDS = 253_402_300_799L; // 9999-12-31T23:59:59Z
  private static final long MIN_SECONDS = -62_167_219_200L; // 0000-01-01T00:00:00Z
  /** The longest text: {@code 9999-12-31T23:59:59.999999999Z}. */
  public static final int MAX_CHARS = 30;

  private IsoInstant() {}

  public static String format(FileTime time) {
    Instant instant = time.toInstant();
    return format(instant.getEpochSecond(), instant.getNano());
  }

  public static String format(long epochSecond, int nanos) {
    char[] out = new char[MAX_CHARS];
    int n = formatTo(out, epochSecond, nanos);
    return n == 0 ? Instant.ofEpochSecond(epochSecond, nanos).toString() : new String(out, 0, n);
  }

  /**
   * Writes {@code Instant.toString()} of the time into {@code out} (at least {@link #MAX_CHARS}
   * long) and answers its length; 0 when the year is outside 0–9999 (then use {@link #format}).
   */
  public static int formatTo(char[] out, long epochSecond, int nanos) {
    if (epochSecond < MIN_SECONDS || epochSecond > MAX_SECONDS) return 0;
    long days = Math.floorDiv(epochSecond, 86_400L);
    int secondOfDay = (int) Math.floorMod(epochSecond, 86_400L);
    // Days to a civil date, counting from 0000-03-01 so that a leap day ends its year (Hinnant's
    // algorithm).
    long z = days + DAYS_0000_TO_1970 - 60;
    long era = Math.floorDiv(z, 146_097L);
    int dayOfEra = (int) (z - era * 146_097L);
    int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int mp = (5 * dayOfYear + 2) / 153;
    int day = dayOfYear - (153 * mp + 2) / 5 + 1;
    int month = mp < 10 ? mp + 3 : mp - 9;
    long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    return formatTo(out, year, month, day, secondOfDay, nanos);
  }

  private static int formatTo(
      char[] out, long year, int month, int day, int secondOfDay, int nanos) {
    int i = 0;
    i = digits(out, i, (int) year, 4);
    out[i++] = '-';
    i = digits(out, i, month, 2);
    out[i++] = '-';
    i = digits(out, i, day, 2);
    out[i++] = 'T';
    i = digits(out, i, secondOfDay / 3600, 2);
    out[i++] = ':';
    i = digits(out, i, secondOfDay / 60 % 60, 2);
    out[i++] = ':';
    i = digits(out, i, secondOfDay % 60, 2);
    if (nanos != 0) {
      out[i++] = '.';
      if (nanos % 1_000_000 == 0) {
        i = digits(out, i, nanos / 1_000_000, 3);
      } else if (nanos % 1000 == 0) {
        i = digits(out, i, nanos / 1000, 6);
      } else {
        i = digits(out, i, nanos, 9);
      }
    }
    out[i++] = 'Z';
    return i;
  }

  private static int digits(char[] out, int at, int value, int width) {
    for (int k = at + width - 1; k >= at; k--) {
      out[k] = (char) ('0' + value % 10);
      value /= 10;
    }
    return at + width;
  }
}
