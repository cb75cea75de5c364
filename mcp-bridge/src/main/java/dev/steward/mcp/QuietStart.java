package dev.steward.mcp;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * MCP's stdout, kept quiet about tool changes until the first tools are registered: the SDK
 * announces {@code notifications/tools/list_changed} for every tool added, and the bridge adds its
 * first ones while (or before) the client initializes — a dozen announcements of nothing the
 * client has seen. Later changes pass.
 */
final class QuietStart extends FilterOutputStream {

  private static final String LIST_CHANGED = "notifications/tools/list_changed";

  private final ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
  private volatile boolean started;

  QuietStart(OutputStream out) {
    super(out);
  }

  /** The first tools are registered: announcements of changes go out from now on. */
  void started() {
    started = true;
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
    boolean drop = !started
        && line.size() < 200
        && line.toString(StandardCharsets.UTF_8).contains(LIST_CHANGED);
    if (!drop) line.writeTo(out);
    line.reset();
  }

  @Override
  public synchronized void flush() throws IOException {
    out.flush();
  }
}
