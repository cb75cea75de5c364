package dev.steward.service.tools.files;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.steward.protocol.json.IsoInstant;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Writes directory entries as their wire form (SPEC §6: {@code {path, name, type, size, modified}}),
 * UTF-8, each followed by a comma, byte for byte what the protocol's mapper writes for the same
 * object. A walk writes each folder's entries as it lists them, on the thread that lists them: a
 * big listing is then never held as objects, and is not written again after the walk.
 *
 * <p>One writer per thread, reused folder after folder. It writes into slabs that it fills and
 * never writes over: {@link #take} hands out a folder's entries where they were written, without a
 * copy, and the answer is sent from there ({@link JsonRanges}).
 */
final class EntryJson {

  private static final byte[] PATH = ascii("{\"path\":\"");
  private static final byte[] NAME = ascii("\",\"name\":\"");
  private static final byte[] TYPE = ascii("\",\"type\":\"");
  private static final byte[] SIZE = ascii("\",\"size\":");
  private static final byte[] MODIFIED = ascii(",\"modified\":\"");
  private static final byte[] END = ascii("\"},");

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final int SLAB_BYTES = 64 * 1024;
  /** A slab grown past this for one huge folder is not written on after it, so a walking thread does not keep megabytes. */
  private static final int KEEP_BYTES = 1024 * 1024;

  private static final int START_ENDS = 256;
  private static final int KEEP_ENDS = 16 * 1024;

  /** The slab being filled: what lies before {@code start} belongs to folders already taken. */
  private byte[] bytes = new byte[SLAB_BYTES];
  /** Where the current folder's entries begin in {@link #bytes}. */
  private int start;

  private int size;
  /** Where each of the current folder's entries ends, from {@link #start}. */
  private int[] ends = new int[START_ENDS];

  private int count;
  private byte[] prefix = new byte[0];
  private final char[] time = new char[IsoInstant.MAX_CHARS];

  /** Starts a folder's entries: their paths are {@code folder}'s with their name after it. */
  void folder(String folder) {
    start = size;
    count = 0;
    prefix = escaped(folder.endsWith("/") ? folder : folder + "/");
  }

  void entry(String name, BasicFileAttributes a) {
    byte[] escapedName =
        isPlain(name) ? null : escaped(name); // most names are written as they are, without a copy
    int nameBytes = escapedName == null ? name.length() : escapedName.length;
    ensure(PATH.length
        + prefix.length
        + NAME.length
        + 2 * nameBytes
        + TYPE.length
        + 9
        + SIZE.length
        + 20
        + MODIFIED.length
        + IsoInstant.MAX_CHARS
        + 8
        + END.length);
    put(PATH);
    put(prefix);
    putName(name, escapedName);
    put(NAME);
    putName(name, escapedName);
    put(TYPE);
    putAscii(Entries.type(a));
    put(SIZE);
    putLong(Entries.size(a));
    put(MODIFIED);
    FileTime modified = a.lastModifiedTime();
    long nanos = modified.to(TimeUnit.NANOSECONDS);
    int n;
    if (nanos != Long.MIN_VALUE && nanos != Long.MAX_VALUE) {
      n = IsoInstant.formatTo(time, Math.floorDiv(nanos, NANOS_PER_SECOND), (int)
          Math.floorMod(nanos, NANOS_PER_SECOND));
    } else { // ~292 years or more from 1970, where nanoseconds saturate: rare enough to allocate
      // for
      Instant far = modified.toInstant();
      n = IsoInstant.formatTo(time, far.getEpochSecond(), far.getNano());
    }
    if (n > 0) {
      for (int i = 0; i < n; i++) bytes[size++] = (byte) time[i];
    } else {
      String far = modified.toInstant().toString(); // a year beyond 9999
      ensure(far.length() + END.length);
      putAscii(far);
    }
    put(END);
    if (count == ends.length) ends = Arrays.copyOf(ends, count * 2);
    ends[count++] = size - start;
  }

  int count() {
    return count;
  }

  /** The folder's entries so far, where they were written; the writer goes on after them. */
  Written take() {
    Written w = count == 0 ? Written.NONE : new Written(bytes, start, Arrays.copyOf(ends, count));
    start = size;
    count = 0;
    if (bytes.length > KEEP_BYTES) newSlab(SLAB_BYTES);
    if (ends.length > KEEP_ENDS) ends = new int[START_ENDS];
    return w;
  }

  /**
   * A folder's entries as written: entry {@code i} is {@code bytes[from(i)..to(i))}, its comma
   * last. The bytes are never written again once taken.
   */
  record Written(byte[] bytes, int base, int[] ends) {
    static final Written NONE = new Written(new byte[0], 0, new int[0]);

    int count() {
      return ends.length;
    }

    int from(int i) {
      return base + (i == 0 ? 0 : ends[i - 1]);
    }

    int to(int i) {
      return base + ends[i];
    }
  }

  /** Printable ASCII without a quote or a backslash: written as it is. Most names are. */
  private static boolean isPlain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') return false;
    }
    return true;
  }

  /** The UTF-8 of a JSON string's content, escaped as the generator escapes it. */
  private static byte[] escaped(String s) {
    if (isPlain(s)) return ascii(s);
    return JsonStringEncoder.getInstance().quoteAsUTF8(s);
  }

  private void putName(String name, byte @Nullable [] escaped) {
    if (escaped == null) putAscii(name);
    else put(escaped);
  }

  private void putAscii(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) bytes[size + i] = (byte) s.charAt(i);
    size += n;
  }

  private void put(byte[] b) {
    System.arraycopy(b, 0, bytes, size, b.length);
    size += b.length;
  }

  private void putLong(long v) {
    if (v < 0) { // sizes are never negative; kept exact all the same
      putAscii(Long.toString(v));
      return;
    }
    int digits = 1;
    for (long x = v; x >= 10; x /= 10) digits++;
    for (int i = size + digits - 1; i >= size; i--) {
      bytes[i] = (byte) ('0' + v % 10);
      v /= 10;
    }
    size += digits;
  }

  /** Room for {@code more} bytes; the folder's entries so far move to a new slab if the current one is full. */
  private void ensure(int more) {
    if (size + more <= bytes.length) return;
    byte[] old = bytes;
    int from = start;
    int written = size - start;
    newSlab(Math.max(SLAB_BYTES, 2 * (written + more)));
    System.arraycopy(old, from, bytes, 0, written);
    size = written;
  }

  private void newSlab(int length) {
    bytes = new byte[length];
    start = 0;
    size = 0;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
