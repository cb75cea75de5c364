package dev.steward.service.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Finding bytes in a byte array eight at a time (SWAR: a long holds eight bytes, and a zero byte
 * in it can be found with three arithmetic steps). Searches read whole trees, so they look at
 * every byte; a byte-at-a-time loop, or copying each file into a string to use the JDK's
 * vectorised {@code indexOf}, costs about twice as much.
 */
public final class ByteSearch {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private ByteSearch() {}

  /**
   * The high bit of every byte of {@code x} that is zero. A borrow can also flag a 0x01 byte above
   * a zero byte, never one below it: the lowest flag is exact, higher ones must be checked.
   */
  private static long zeros(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  /** Whether every byte of {@code a[from, to)} is ASCII (below 0x80). */
  public static boolean isAscii(byte[] a, int from, int to) {
    long high = 0;
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) high |= (long) LONGS.get(a, i);
    for (; i < to; i++) high |= a[i];
    return (high & HIGHS) == 0;
  }

  /** The first index of {@code b} in {@code a[from, to)}, or -1. */
  public static int indexOf(byte[] a, int from, int to, byte b) {
    long pattern = (b & 0xFFL) * ONES;
    int i = from;
    for (; i + Long.BYTES <= to; i += Long.BYTES) {
      long found = zeros((long) LONGS.get(a, i) ^ pattern);
      if (found != 0) return i + (Long.numberOfTrailingZeros(found) >>> 3);
    }
    for (; i < to; i++) {
      if (a[i] == b) return i;
    }
    return -1;
  }

  /**
   * The first index of {@code needle} in {@code a[from, to)}, or -1. Candidates are places where
   * both the needle's first and last byte match, eight places at a time; each is then compared
   * whole.
   */
  public static int indexOf(byte[] a, int from, int to, byte[] needle) {
    int n = needle.length;
    if (n == 0) return from <= to ? from : -1;
    if (n == 1) return indexOf(a, from, to, needle[0]);
    long first = (needle[0] & 0xFFL) * ONES;
    long last = (needle[n - 1] & 0xFFL) * ONES;
    int i = from;
    // place i's last byte is at i + n - 1; a long read there must end inside the array
    for (; i + n - 1 + Long.BYTES <= to; i += Long.BYTES) {
      long x = (long) LONGS.get(a, i) ^ first;
      long y = (long) LONGS.get(a, i + n - 1) ^ last;
      long candidates = zeros(x | y);
      while (candidates != 0) {
        int at = i + (Long.numberOfTrailingZeros(candidates) >>> 3);
        if (Arrays.equals(a, at, at + n, needle, 0, n)) return at;
        candidates &= candidates - 1;
      }
    }
    for (; i + n <= to; i++) {
      if (a[i] == needle[0] && Arrays.equals(a, i, i + n, needle, 0, n)) return i;
    }
    return -1;
  }
}
