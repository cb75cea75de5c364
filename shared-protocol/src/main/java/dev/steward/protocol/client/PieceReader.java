package dev.steward.protocol.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Reader;
import java.nio.CharBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A text message that arrives in pieces, read as one stream while it is still arriving: a
 * multi-megabyte answer is parsed as it comes in rather than after its last piece. The socket's
 * thread adds pieces (copies: the socket reuses its buffers); one reader thread reads.
 */
final class PieceReader extends Reader {

  private static final char[] END = new char[0];
  private static final char[] BROKEN = new char[0];

  private final BlockingQueue<char[]> pieces = new LinkedBlockingQueue<>();
  private char[] current = new char[0];
  private int at;

  void add(CharSequence piece) {
    char[] copy = new char[piece.length()];
    if (piece instanceof CharBuffer buffer) {
      buffer.duplicate().get(copy);
    } else {
      piece.toString().getChars(0, copy.length, copy, 0);
    }
    if (copy.length > 0) pieces.add(copy);
  }

  /** The message is whole. */
  void end() {
    pieces.add(END);
  }

  /** The connection went before the message was whole: the reader fails instead of waiting. */
  void broken() {
    pieces.add(BROKEN);
  }

  @Override
  public int read(char[] into, int offset, int length) throws IOException {
    if (length == 0) return 0;
    while (at == current.length) {
      if (current == END) return -1;
      if (current == BROKEN)
        throw new IOException("the connection closed in the middle of a message");
      try {
        current = pieces.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while a message arrived");
      }
      at = 0;
    }
    int n = Math.min(length, current.length - at);
    System.arraycopy(current, at, into, offset, n);
    at += n;
    return n;
  }

  @Override
  public void close() {
    // nothing to release: the pieces go with the reader
  }
}
