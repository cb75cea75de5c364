package dev.steward.mcp;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * MCP's stdout, with only the tool-list announcements the bridge means: the SDK announces {@code
 * notifications/tools/list_changed} for every tool added or removed, from its own thread, and the
 * bridge adds its first tools while (or before) the client initializes — a dozen announcements of
 * nothing the client has seen. An announcement passes only against a permit the bridge gave for a
 * real change ({@link #expect}); the rest are dropped, whenever the SDK gets round to writing them.
 */
final class QuietStart extends FilterOutputStream {

  private static final String LIST_CHANGED = "notifications/tools/list_changed";

  private final ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
  private final java.util.concurrent.atomic.AtomicInteger permits =
      new java.util.concurrent.atomic.AtomicInteger();

  QuietStart(OutputStream out) {
    super(out);
  }

  /** The bridge is about to add or remove {@code n} tools for a change the client should hear of. */
  void expect(int n) {
    permits.addAndGet(n);
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') emit();
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] != '\n') continue;
      line.write(b, start, i + 1 - start);
      start = i + 1;
      emit();
    }
    line.write(b, start, off + len - start);
  }

  private void emit() throws IOException {
    boolean drop = line.size() < 200
        && announcement(line.toString(StandardCharsets.UTF_8))
        && permits.getAndUpdate(p -> Math.max(0, p - 1)) == 0;
    if (!drop) line.writeTo(out);
    line.reset();
  }

  /** The SDK's announcement itself, never a message that only mentions it (a short file's text). */
  private static boolean announcement(String line) {
    if (!line.contains(LIST_CHANGED)) return false;
    try {
      com.fasterxml.jackson.databind.JsonNode m = dev.steward.protocol.json.Json.parse(line);
      return LIST_CHANGED.equals(m.path("method").asText(null)) && !m.has("id");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }
}
