package dev.steward.service.audit;

import dev.steward.service.util.ByteSearch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What makes {@code audit.query}'s text filter fast over millions of rows: a side file with each
 * row's searchable fields, lower-cased, one line per row, oldest first. A search reads it from the
 * end in chunks and scans bytes; H2 would decode and lower-case every row field by field (about
 * 2.5 s per million rows). Only the rows found are then read from H2, with the other filters.
 *
 * <p>It is derived data, never the record: the loader thread hands it each batch after H2 has it,
 * and rows are written a few thousand at a time, or before a search reads the file (so a call
 * pays for no index work of its own); at start the file is cut back to its last whole line and
 * completed from H2, or rebuilt when it claims rows H2 lacks. A line is the fields joined by 0x1F, then 0x1E and the row's number;
 * control characters in fields become spaces, so neither mark can occur inside a field.
 */
final class TextIndex implements Closeable {

  static final String FILE = "audit-text.idx";

  private static final byte FIELD = 0x1F;
  private static final byte SEQ = 0x1E;
  private static final int CHUNK = 1 << 20;
  /** Rows kept back before they are written (a search writes them first). */
  static final int WRITE_EVERY = 4096;

  /** Receives the numbers of matching rows, newest first, one chunk at a time; false stops. */
  interface Hits {
    boolean accept(long[] seqs, int count);
  }

  private final FileChannel file;
  private final List<ChainedRow> pending = new java.util.ArrayList<>();
  private volatile long length;
  private volatile long lastSeq;

  private TextIndex(FileChannel file, long length, long lastSeq) {
    this.file = file;
    this.length = length;
    this.lastSeq = lastSeq;
  }

  /** Opens the file, dropping a torn last line (a crash mid-append). */
  static TextIndex open(Path dataDir) throws IOException {
    FileChannel file = FileChannel.open(
        dataDir.resolve(FILE),
        StandardOpenOption.CREATE,
        StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      long size = file.size();
      long end = lastLineEnd(file, size);
      if (end < size) file.truncate(end);
      return new TextIndex(file, end, end == 0 ? 0 : seqOfLineEndingAt(file, end));
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  long lastSeq() {
    return lastSeq;
  }

  /** Empties the file (it claimed rows H2 does not have). */
  synchronized void reset() throws IOException {
    pending.clear();
    file.truncate(0);
    length = 0;
    lastSeq = 0;
  }

  /** Takes rows newer than the last one held (the loader's thread only); writes them in bulk. */
  synchronized void append(List<ChainedRow> rows) throws IOException {
    for (ChainedRow r : rows) {
      if (r.seq() <= lastSeq) continue;
      pending.add(r);
      lastSeq = r.seq();
    }
    if (pending.size() >= WRITE_EVERY) write();
  }

  /** Writes the rows kept back. */
  synchronized void flush() throws IOException {
    if (!pending.isEmpty()) write();
  }

  private void write() throws IOException {
    StringBuilder sb = new StringBuilder(pending.size() * 160);
    for (ChainedRow r : pending) {
      AuditEntry e = r.entry();
      String[] fields = {
        e.tool(),
        e.summary(),
        e.argsPreview(),
        e.reason(),
        e.traceId(),
        e.callId(),
        e.errorCode(),
        e.tokenId()
      };
      for (int i = 0; i < fields.length; i++) {
        if (i > 0) sb.append((char) FIELD);
        field(sb, fields[i]);
      }
      sb.append((char) SEQ).append(r.seq()).append('\n');
    }
    ByteBuffer bytes = ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8));
    long at = length;
    while (bytes.hasRemaining()) at += file.write(bytes, at);
    length = at;
    pending.clear();
  }

  private static void field(StringBuilder sb, @Nullable String text) {
    if (text == null) return;
    String lower = text.toLowerCase(Locale.ROOT);
    int start = sb.length();
    sb.append(lower);
    for (int i = start; i < sb.length(); i++) {
      char c = sb.charAt(i);
      if (c < 0x20 || c == 0x7F) sb.setCharAt(i, ' ');
    }
  }

  /** The form a query's text is searched in, or null when it cannot be (it holds control characters). */
  static byte @Nullable [] needle(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) return null;
    return lower.getBytes(StandardCharsets.UTF_8);
  }

  /** Finds rows below {@code below} whose text holds {@code needle}, newest first. */
  void search(byte[] needle, long below, Hits hits) throws IOException {
    flush();
    long end = length;
    byte[] buf = new byte[CHUNK];
    long[] seqs = new long[CHUNK / 8]; // a line is at least ten bytes
    while (end > 0) {
      int want = (int) Math.min(CHUNK, end);
      long start = end - want;
      ByteBuffer bb = ByteBuffer.wrap(buf, 0, want);
      while (bb.hasRemaining()) {
        if (file.read(bb, start + bb.position()) < 0)
          throw new IOException("the text index shrank while it was read");
      }
      // The chunk's first line may have begun before it: leave that line to the next chunk.
      int from = 0;
      if (start > 0) {
        from = ByteSearch.indexOf(buf, 0, want, (byte) '\n') + 1;
        if (from == 0)
          throw new IOException("a line of the text index is longer than " + CHUNK + " bytes");
      }
      int count = 0;
      int at = ByteSearch.indexOf(buf, from, want, needle);
      while (at >= 0) {
        int lineEnd = ByteSearch.indexOf(buf, at, want, (byte) '\n');
        int mark = lastIndexOf(buf, lineEnd, SEQ);
        if (at < mark) { // a match in the fields, not in the row's number
          long seq = parseSeq(buf, mark + 1, lineEnd);
          if (seq < below) seqs[count++] = seq;
        }
        at = ByteSearch.indexOf(buf, lineEnd + 1, want, needle);
      }
      // Lines were met oldest first; hand them over newest first.
      for (int i = 0, j = count - 1; i < j; i++, j--) {
        long t = seqs[i];
        seqs[i] = seqs[j];
        seqs[j] = t;
      }
      if (count > 0 && !hits.accept(seqs, count)) return;
      end = start + from;
    }
  }

  private static int lastIndexOf(byte[] buf, int before, byte b) {
    for (int i = before - 1; i >= 0; i--) if (buf[i] == b) return i;
    return -1;
  }

  private static long parseSeq(byte[] buf, int from, int to) {
    long n = 0;
    for (int i = from; i < to; i++) n = n * 10 + (buf[i] - '0');
    return n;
  }

  private static long lastLineEnd(FileChannel file, long size) throws IOException {
    long pos = size;
    ByteBuffer one = ByteBuffer.allocate(4096);
    while (pos > 0) {
      int n = (int) Math.min(one.capacity(), pos);
      one.clear().limit(n);
      file.read(one, pos - n);
      for (int i = n - 1; i >= 0; i--) {
        if (one.get(i) == '\n') return pos - n + i + 1;
      }
      pos -= n;
    }
    return 0;
  }

  private static long seqOfLineEndingAt(FileChannel file, long end) throws IOException {
    int n = (int) Math.min(32, end);
    ByteBuffer tail = ByteBuffer.allocate(n);
    file.read(tail, end - n);
    byte[] b = tail.array();
    int mark = lastIndexOf(b, n - 1, SEQ);
    if (mark < 0) throw new IOException("the text index's last line has no row number");
    return parseSeq(b, mark + 1, n - 1);
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      flush();
    } finally {
      file.close();
    }
  }
}
