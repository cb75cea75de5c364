package dev.steward.service.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The audit log's write-ahead journal ({@code data/audit.journal}): rows are appended here, one
 * {@code write} per batch, before anyone is told they are logged. It always starts with a head
 * line naming the newest row that H2 had safely on disk when the journal was last rotated, so the
 * newest chain hash lives outside the database too and a cut-off tail is detected.
 */
final class Journal implements Closeable {

  /** What the journal held at start-up. */
  record Recovery(long headSeq, String headHash, List<ChainedRow> rows, boolean tornTail) {}

  private final Path file;
  private volatile FileChannel channel;
  /** Where each row of this file starts, so rotation copies bytes rather than keeping rows in memory. */
  private final RowOffsets offsets;
  /** The file's length: where the next append goes. */
  private long size;

  private Journal(Path file, FileChannel channel, long size, RowOffsets offsets) {
    this.file = file;
    this.channel = channel;
    this.size = size;
    this.offsets = offsets;
  }

  static Path fileIn(Path dataDir) {
    return dataDir.resolve("audit.journal");
  }

  /** Reads what a previous run left; a torn last line (a crash mid-write) is dropped. */
  static Recovery read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return new Recovery(0, ChainedRow.GENESIS, List.of(), false);
    }
    // Split on bytes, then decode each line: a line torn in the middle of a character must cost
    // only that line, not make the whole journal unreadable.
    List<String> lines = new ArrayList<>();
    byte[] all = Files.readAllBytes(file);
    int start = 0;
    for (int i = 0; i <= all.length; i++) {
      if (i == all.length || all[i] == '\n') {
        if (i > start) lines.add(new String(all, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    long headSeq = 0;
    String headHash = ChainedRow.GENESIS;
    List<ChainedRow> rows = new ArrayList<>();
    boolean torn = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) continue;
      try {
        JsonNode node = Json.parse(line);
        if (node.path("head").asBoolean(false)) {
          headSeq = node.get("seq").asLong();
          headHash = node.get("row_hash").asText();
        } else {
          rows.add(ChainedRow.fromJson(node));
        }
      } catch (IOException | RuntimeException e) {
        if (i == lines.size() - 1) {
          torn = true; // never acknowledged: the write it belonged to did not complete
        } else {
          throw new IOException("the audit journal " + file + " is damaged at line " + (i + 1), e);
        }
      }
    }
    return new Recovery(headSeq, headHash, rows, torn);
  }

  /** Starts a fresh journal holding only a head line: H2 has every row up to {@code headSeq}. */
  static Journal create(Path file, long headSeq, String headHash) throws IOException {
    byte[] head = headLine(headSeq, headHash);
    Path tmp = tmpOf(file);
    try (FileChannel ch = FileChannel.open(
        tmp,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      writeFully(ch, ByteBuffer.wrap(head));
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    return new Journal(file, openAppend(file), head.length, new RowOffsets(headSeq + 1));
  }

  /**
   * Appends a row (the one after the last) in one write; its line is encoded into buffers the
   * thread keeps, without a tree or copies.
   */
  void append(ChainedRow row) throws IOException {
    ChainedRow.Scratch scratch = ChainedRow.scratch();
    int n = scratch.utf8(row.journalLine());
    write(ByteBuffer.wrap(scratch.bytes, 0, n));
    offsets.add(row.seq(), size);
    size += n;
    if (n > ChainedRow.Scratch.KEEP) scratch.shrink();
  }

  /** Writes at the end; if the write fails part-way the file is cut back, so no torn line is left mid-file. */
  private void write(ByteBuffer bytes) throws IOException {
    try {
      writeFully(channel, bytes);
    } catch (IOException e) {
      try {
        channel.truncate(size);
      } catch (IOException cut) {
        e.addSuppressed(cut);
      }
      throw e;
    }
  }

  void force() throws IOException {
    channel.force(false);
  }

  /** Rows written since the journal was created or last rotated. */
  int rowCount() {
    return offsets.count();
  }

  /**
   * Replaces the journal with one that starts at a newer head, keeping the rows after it (copied
   * as bytes from this file); the rename is atomic.
   */
  void rotate(long headSeq, String headHash) throws IOException {
    channel.force(false);
    long from = offsets.offsetOf(headSeq + 1, size);
    byte[] head = headLine(headSeq, headHash);
    Path tmp = tmpOf(file);
    // The new file's channel becomes the journal's once it has replaced the old file (the
    // descriptor follows the rename); until then the old journal stays open and in use, so a
    // rotation that fails at any step leaves a working journal behind.
    FileChannel next = FileChannel.open(
        tmp,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
    try {
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
        writeFully(next, ByteBuffer.wrap(head));
        for (long pos = from; pos < size; ) {
          long n = in.transferTo(pos, size - pos, next);
          if (n <= 0)
            throw new IOException("the audit journal ended at " + pos + " while copying it; " + size
                + " bytes were written");
          pos += n;
        }
      }
      next.force(true);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      next.close();
      Files.deleteIfExists(tmp);
      throw e;
    }
    FileChannel old = channel;
    channel = next;
    offsets.dropBefore(headSeq + 1, from - head.length);
    size = size - from + head.length;
    old.close();
  }

  private static byte[] headLine(long headSeq, String headHash) {
    ObjectNode head = Json.object();
    head.put("head", true);
    head.put("seq", headSeq);
    head.put("row_hash", headHash);
    return (head.toString() + '\n').getBytes(StandardCharsets.UTF_8);
  }

  private static Path tmpOf(Path file) {
    return file.resolveSibling(file.getFileName() + ".tmp");
  }

  private static FileChannel openAppend(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }

  private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) ch.write(buf);
  }

  /** Byte offsets of consecutive rows, from {@code first}: eight bytes a row. */
  static final class RowOffsets {
    private long first;
    private long[] at = new long[1024];
    private int count;

    RowOffsets(long first) {
      this.first = first;
    }

    void add(long seq, long offset) {
      if (seq != first + count)
        throw new IllegalStateException(
            "journal rows out of order: " + seq + " after " + (first + count - 1));
      if (count == at.length) at = java.util.Arrays.copyOf(at, count * 2);
      at[count++] = offset;
    }

    int count() {
      return count;
    }

    /** Where row {@code seq} starts; {@code end} if it is not written yet. */
    long offsetOf(long seq, long end) {
      if (seq < first)
        throw new IllegalArgumentException(
            "row " + seq + " is before this journal (" + first + ")");
      return seq - first < count ? at[(int) (seq - first)] : end;
    }

    /** Forgets rows before {@code seq}; the rest move by {@code shift} bytes. */
    void dropBefore(long seq, long shift) {
      int drop = (int) Math.min(count, Math.max(0, seq - first));
      int keep = count - drop;
      long[] next = new long[Math.max(1024, Integer.highestOneBit(Math.max(1, keep)) * 2)];
      for (int i = 0; i < keep; i++) next[i] = at[drop + i] - shift;
      at = next;
      count = keep;
      first = seq;
    }
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
