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

  private Journal(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
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

  /** Starts a fresh journal holding a head line and the rows H2 may not have yet. */
  static Journal create(Path file, long headSeq, String headHash, List<ChainedRow> rows) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (FileChannel ch =
        FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      writeFully(ch, encode(headSeq, headHash, rows));
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new Journal(file, channel);
  }

  void append(List<ChainedRow> rows) throws IOException {
    StringBuilder text = new StringBuilder(rows.size() * 512);
    for (ChainedRow row : rows) {
      text.append(row.toJson().toString()).append('\n');
    }
    writeFully(channel, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
  }

  void force() throws IOException {
    channel.force(false);
  }

  /** Replaces the journal with one that starts at a newer head; the rename is atomic. */
  void rotate(long headSeq, String headHash, List<ChainedRow> keep) throws IOException {
    channel.force(false);
    channel.close();
    Journal fresh = create(file, headSeq, headHash, keep);
    this.channel = fresh.channel;
  }

  private static ByteBuffer encode(long headSeq, String headHash, List<ChainedRow> rows) {
    ObjectNode head = Json.object();
    head.put("head", true);
    head.put("seq", headSeq);
    head.put("row_hash", headHash);
    StringBuilder text = new StringBuilder(head.toString()).append('\n');
    for (ChainedRow row : rows) {
      text.append(row.toJson().toString()).append('\n');
    }
    return ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void writeFully(FileChannel ch, ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) ch.write(buf);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
