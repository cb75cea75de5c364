package dev.steward.service.tools.files;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.steward.service.util.IsoInstant;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Writes directory entries as their wire form (SPEC §6: {@code {path, name, type, size, modified}}),
 * UTF-8, back to back, byte for byte what the protocol's mapper writes for the same object. A walk
 * writes each folder's entries as it lists them, on the thread that lists them: a big listing is
 * then never held as objects, and is not written again after the walk.
 *
 * <p>One writer per thread, reused folder after folder: {@link #take} hands out a folder's bytes.
 */
final class EntryJson {

  private static final byte[] PATH = ascii("{\"path\":\"");
  private static final byte[] NAME = ascii("\",\"name\":\"");
  private static final byte[] TYPE = ascii("\",\"type\":\"");
  private static final byte[] SIZE = ascii("\",\"size\":");
  private static final byte[] MODIFIED = ascii(",\"modified\":\"");
  private static final byte[] END = ascii("\"}");

  private static final int START_BYTES = 64 * 1024;
  /** A writer that grew past this for one huge folder starts small again, so a walking thread does not keep megabytes. */
  private static final int KEEP_BYTES = 1024 * 1024;
  private static final int START_ENDS = 256;
  private static final int KEEP_ENDS = 16 * 1024;

  private byte[] bytes = new byte[START_BYTES];
  private int size;
  private int[] ends = new int[START_ENDS];
  private int count;
  private byte[] prefix = new byte[0];
  private final char[] time = new char[IsoInstant.MAX_CHARS];

  /** Starts a folder's entries: their paths are {@code folder}'s with their name after it. */
  void folder(String folder) {
    size = 0;
    count = 0;
    prefix = escaped(folder.endsWith("/") ? folder : folder + "/");
  }

  void entry(String name, BasicFileAttributes a) {
    byte[] escapedName = isPlain(name) ? null : escaped(name); // most names are written as they are, without a copy
    int nameBytes = escapedName == null ? name.length() : escapedName.length;
    ensure(PATH.length + prefix.length + NAME.length + 2 * nameBytes + TYPE.length + 9 + SIZE.length + 20
        + MODIFIED.length + IsoInstant.MAX_CHARS + 8 + END.length);
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
    Instant modified = a.lastModifiedTime().toInstant();
    int n = IsoInstant.formatTo(time, modified.getEpochSecond(), modified.getNano());
    if (n > 0) {
      for (int i = 0; i < n; i++) bytes[size++] = (byte) time[i];
    } else {
      String far = modified.toString(); // a year beyond 9999: rare enough to allocate for
      ensure(far.length() + END.length);
      putAscii(far);
    }
    put(END);
    if (count == ends.length) ends = Arrays.copyOf(ends, count * 2);
    ends[count++] = size;
  }

  int count() {
    return count;
  }

  /** The folder's entries so far, and where each ends; the writer starts afresh. */
  Written take() {
    Written w = new Written(Arrays.copyOf(bytes, size), Arrays.copyOf(ends, count));
    size = 0;
    count = 0;
    if (bytes.length > KEEP_BYTES) bytes = new byte[START_BYTES];
    if (ends.length > KEEP_ENDS) ends = new int[START_ENDS];
    return w;
  }

  /** A folder's entries written out: entry {@code i} is {@code bytes[ends[i-1]..ends[i])}. */
  record Written(byte[] bytes, int[] ends) {
    static final Written NONE = new Written(new byte[0], new int[0]);

    int count() {
      return ends.length;
    }

    int start(int i) {
      return i == 0 ? 0 : ends[i - 1];
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

  private void ensure(int more) {
    if (size + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
