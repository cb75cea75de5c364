package dev.steward.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * The client's messages, let through as the bridge becomes ready for them: the first line (MCP's
 * {@code initialize}, which a client sends alone and then waits for) at once, and the rest once the
 * tools are registered — so that {@code initialize} is answered while the bridge still connects to
 * the service, and no {@code tools/list} is answered before the tools are there. The end of input
 * ends the bridge.
 */
final class GatedStdin extends FilterInputStream {

  private final CountDownLatch ready = new CountDownLatch(1);
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean firstLineThrough;

  GatedStdin(InputStream in) {
    super(in);
  }

  /** The tools are registered: the rest of the client's messages may come in. */
  void open() {
    ready.countDown();
  }

  /** Waits for the client to close its end. */
  void awaitEnd() throws InterruptedException {
    ended.await();
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

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    gate();
    int n = super.read(b, off, len);
    if (n < 0) ended.countDown();
    for (int i = off; i < off + Math.max(n, 0); i++) if (b[i] == '\n') firstLineThrough = true;
    return n;
  }

  @Override
  public int read() throws IOException {
    gate();
    int c = super.read();
    if (c < 0) ended.countDown();
    if (c == '\n') firstLineThrough = true;
    return c;
  }
}
