package dev.steward.mcp;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;

/**
 * The client's messages, let through as the bridge becomes ready for them: the first line (MCP's
 * {@code initialize}, which a client sends alone and then waits for) at once, and the rest once the
 * tools are registered — so that {@code initialize} is answered while the bridge still connects to
 * the service, and no {@code tools/list} is answered before the tools are there. Each line passes
 * through {@code lines} on its way (it may read or rewrite it).
 */
final class GatedStdin extends FilterInputStream {

  private final CountDownLatch ready = new CountDownLatch(1);
  private final UnaryOperator<String> lines;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
  private final byte[] chunk = new byte[65536];
  private byte[] out = new byte[0];
  private int outAt;
  private boolean firstLineThrough;
  private boolean atEnd;

  GatedStdin(InputStream in) {
    this(in, UnaryOperator.identity());
  }

  GatedStdin(InputStream in, UnaryOperator<String> lines) {
    super(in);
    this.lines = lines;
  }

  /** The tools are registered: the rest of the client's messages may come in. */
  void open() {
    ready.countDown();
  }

  private void gate() throws IOException {
    if (!firstLineThrough) return;
    try {
      ready.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the bridge connected", e);
    }
  }

  /**
   * Makes the next line ready to hand out, reading more when no whole line is buffered; false at
   * the end. Lines are released one at a time: after the first, only once the bridge is ready —
   * also when a client sent several in one write.
   */
  private boolean fill() throws IOException {
    while (outAt >= out.length) {
      byte[] buffered = line.toByteArray();
      int nl = indexOf(buffered, (byte) '\n');
      if (nl >= 0) {
        gate();
        String text = lines.apply(new String(buffered, 0, nl, StandardCharsets.UTF_8));
        out = (text + "\n").getBytes(StandardCharsets.UTF_8);
        outAt = 0;
        line.reset();
        line.write(buffered, nl + 1, buffered.length - nl - 1);
        firstLineThrough = true;
        return true;
      }
      if (atEnd) {
        if (buffered.length == 0) return false;
        out = buffered;
        outAt = 0;
        line.reset();
        return true;
      }
      int n = super.read(chunk, 0, chunk.length);
      if (n < 0) {
        atEnd = true;
      } else {
        line.write(chunk, 0, n);
      }
    }
    return true;
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) if (bytes[i] == b) return i;
    return -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) return 0;
    if (!fill()) return -1;
    int n = Math.min(len, out.length - outAt);
    System.arraycopy(out, outAt, b, off, n);
    outAt += n;
    return n;
  }

  @Override
  public int read() throws IOException {
    if (!fill()) return -1;
    return out[outAt++] & 0xff;
  }

  @Override
  public int available() {
    return out.length - outAt;
  }
}
