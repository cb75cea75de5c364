package dev.steward.protocol.json;

import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * {@link Instant#toString()} and its reading back without the general date formatter: a listing
 * prints a time for every entry (the formatter was a fifth of the cost of sending a big listing),
 * and every tool result carries two that its client reads. The text is exactly {@code
 * Instant.toString()}'s (UTC, the fraction in groups of three digits, none when zero); years
 * outside 0–9999, and any other text, are left to the JDK.
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

  /**
   * The instant written as {@code Instant.toString()} writes it (also with a fraction of any 1–9
   * digits), for years 0–9999; null for any other text, which {@link Instant#parse} may still
   * take (it reads lower case, offsets, a leap second).
   */
  public static @Nullable Instant parse(CharSequence text) {
    int n = text.length();
    if (n < 20
        || n > MAX_CHARS
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(n - 1) != 'Z') return null;
    int year = number(text, 0, 4);
    int month = number(text, 5, 2);
    int day = number(text, 8, 2);
    int hour = number(text, 11, 2);
    int minute = number(text, 14, 2);
    int second = number(text, 17, 2);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > daysIn(year, month)
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) return null;
    int nanos = 0;
    if (n > 20) {
      int width = n - 21; // between the point at 19 and the closing Z
      if (text.charAt(19) != '.' || width == 0) return null;
      int fraction = number(text, 20, width);
      if (fraction < 0) return null;
      nanos = fraction * TENS[9 - width];
    }
    long seconds = epochDay(year, month, day) * 86_400L + hour * 3600 + minute * 60 + second;
    return Instant.ofEpochSecond(seconds, nanos);
  }

  private static final int[] TENS = {
    1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000
  };

  /** Days since 1970-01-01 of a civil date (Hinnant's algorithm, as {@link #formatTo} reversed). */
  private static long epochDay(int year, int month, int day) {
    int y = month <= 2 ? year - 1 : year;
    int era = Math.floorDiv(y, 400);
    int yearOfEra = y - era * 400;
    int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097L + dayOfEra - (DAYS_0000_TO_1970 - 60);
  }

  private static int daysIn(int year, int month) {
    if (month == 2) return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
    return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  }

  /** The decimal number of {@code width} digits at {@code at}; -1 if one is not a digit. */
  private static int number(CharSequence text, int at, int width) {
    int value = 0;
    for (int i = at; i < at + width; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') return -1;
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static int digits(char[] out, int at, int value, int width) {
    for (int k = at + width - 1; k >= at; k--) {
      out[k] = (char) ('0' + value % 10);
      value /= 10;
    }
    return at + width;
  }
}
