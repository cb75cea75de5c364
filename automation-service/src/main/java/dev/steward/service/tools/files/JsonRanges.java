package dev.steward.service.tools.files;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A JSON array held as ranges of the arrays its items were written in, in order: a listing's
 * entries stay where the walking threads wrote them ({@link EntryJson}) and are copied once, into
 * the message that carries them. Every item ends with a comma; the last one's is left out.
 *
 * <p>Filled by one thread while a listing is put in order, read-only once handed out.
 */
final class JsonRanges {

  private byte[][] arrays = new byte[16][];
  private int[] from = new int[16];
  private int[] to = new int[16];
  private int ranges;
  private long itemBytes;

  /** Adds the items at {@code array[start..end)}, each with its comma; they join the last range when they follow on from it. */
  void add(byte[] array, int start, int end) {
    itemBytes += end - start;
    if (ranges > 0 && arrays[ranges - 1] == array && to[ranges - 1] == start) {
      to[ranges - 1] = end;
      return;
    }
    if (ranges == arrays.length) {
      arrays = Arrays.copyOf(arrays, ranges * 2);
      from = Arrays.copyOf(from, ranges * 2);
      to = Arrays.copyOf(to, ranges * 2);
    }
    arrays[ranges] = array;
    from[ranges] = start;
    to[ranges] = end;
    ranges++;
  }

  /** The array's length in bytes, brackets included. */
  long length() {
    return itemBytes == 0 ? 2 : itemBytes + 1; // '[' and ']' in place of the last comma
  }

  void writeTo(OutputStream out) throws IOException {
    out.write('[');
    for (int r = 0; r < ranges; r++) {
      int end = r == ranges - 1 ? to[r] - 1 : to[r];
      out.write(arrays[r], from[r], end - from[r]);
    }
    out.write(']');
  }

  byte[] toBytes() {
    if (length() > Integer.MAX_VALUE - 16)
      throw new OutOfMemoryError("a listing of more than 2 GB");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) length());
    try {
      writeTo(out);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a byte array does not fail
    }
    return out.toByteArray();
  }
}
