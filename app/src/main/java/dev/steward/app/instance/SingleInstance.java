package dev.steward.app.instance;

import dev.steward.app.config.OwnerOnly;
import dev.steward.protocol.util.DaemonThreads;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The window that holds a Steward home. The first start takes a lock on {@code run/window.lock}
 * and listens on a socket beside it ({@code run/window.sock}, a Unix domain socket only its user
 * can reach); a second start on the same home finds the lock taken, asks the first over the
 * socket to come to the front, and exits before it opens anything (the history's database, the
 * service). A lock dies with its process, so a crashed window never blocks the next start.
 */
public final class SingleInstance implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(SingleInstance.class.getName());
  private static final String SHOW = "show\n";
  /** How long a second start waits for a first one that is still starting to listen. */
  private static final Duration HANDOVER = Duration.ofSeconds(5);

  private final FileChannel lockFile;
  private final FileLock lock;
  private final ServerSocketChannel server;
  private final Path socket;
  private volatile Runnable onShow = () -> {};

  private SingleInstance(
      FileChannel lockFile, FileLock lock, ServerSocketChannel server, Path socket) {
    this.lockFile = lockFile;
    this.lock = lock;
    this.server = server;
    this.socket = socket;
    DaemonThreads.start("steward-single-instance", this::serve);
  }

  /**
   * Claims the home whose run folder is {@code run}. Empty when another window holds it: that
   * window has then been asked to come to the front.
   *
   * @throws IOException when the run folder cannot be used at all
   */
  public static Optional<SingleInstance> claim(Path run) throws IOException {
    OwnerOnly.folder(run);
    Path socket = run.resolve("window.sock");
    FileChannel channel = FileChannel.open(
        run.resolve("window.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null; // held by this very process (a second window started in it)
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      askToShow(socket);
      return Optional.empty();
    }
    try {
      Files.deleteIfExists(socket); // left by a window that did not close cleanly
      ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
      return Optional.of(new SingleInstance(channel, lock, server, socket));
    } catch (IOException | RuntimeException e) {
      lock.release();
      channel.close();
      throw e;
    }
  }

  /** What to do when a second start asks for the window (called on a thread of this class). */
  public void onShowRequest(Runnable show) {
    this.onShow = show;
  }

  private static void askToShow(Path socket) throws IOException {
    long deadline = System.nanoTime() + HANDOVER.toNanos();
    while (true) {
      try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
        c.connect(UnixDomainSocketAddress.of(socket));
        c.write(ByteBuffer.wrap(SHOW.getBytes(StandardCharsets.US_ASCII)));
        return;
      } catch (IOException e) {
        // the first window may hold the lock but not listen yet
        if (System.nanoTime() > deadline)
          throw new IOException(
              "another Steward window holds this home but does not answer at " + socket, e);
        try {
          Thread.sleep(50);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while asking the other window to come forward", ie);
        }
      }
    }
  }

  private void serve() {
    while (server.isOpen()) {
      try (SocketChannel c = server.accept()) {
        ByteBuffer in = ByteBuffer.allocate(16);
        while (in.hasRemaining() && c.read(in) > 0) {
          if (new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII).endsWith("\n"))
            break;
        }
        if (new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII).equals(SHOW))
          onShow.run();
      } catch (IOException e) {
        if (server.isOpen()) LOG.log(Level.FINE, "single instance: a request failed", e);
      }
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      Files.deleteIfExists(socket);
      lock.release();
      lockFile.close();
    } catch (IOException e) {
      LOG.log(Level.FINE, "single instance: close", e);
    }
  }
}
