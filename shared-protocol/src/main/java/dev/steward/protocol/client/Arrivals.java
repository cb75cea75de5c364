package dev.steward.protocol.client;

import dev.steward.protocol.jsonrpc.Message;
import dev.steward.protocol.jsonrpc.MessageCodec;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The text messages of one connection, parsed and handed on in the order they arrive. One that
 * comes in one piece is parsed on the socket's thread; one that comes in many is parsed on a
 * thread of its own while its pieces still arrive (a multi-megabyte answer's parse then overlaps
 * its transfer instead of following it), and what arrives after it waits for it.
 *
 * <p>Fed by one thread at a time (the socket's listener calls are sequential).
 */
final class Arrivals {

  private final Executor parsers;
  private final Consumer<List<Message>> deliver;
  private @Nullable PieceReader arriving;
  private CompletableFuture<Void> inOrder = CompletableFuture.completedFuture(null);

  Arrivals(Executor parsers, Consumer<List<Message>> deliver) {
    this.parsers = parsers;
    this.deliver = deliver;
  }

  /** A piece of a message; {@code last}: the message is whole. */
  void text(CharSequence data, boolean last) {
    if (last && arriving == null) {
      String text = data.toString();
      if (inOrder.isDone()) parse(() -> MessageCodec.parseFromServer(text));
      else after(() -> parse(() -> MessageCodec.parseFromServer(text)), false);
      return;
    }
    if (arriving == null) {
      PieceReader reader = new PieceReader();
      arriving = reader;
      after(() -> parse(() -> MessageCodec.parseFromServer(reader)), true);
    }
    arriving.add(data);
    if (last) {
      arriving.end();
      arriving = null;
    }
  }

  /** The connection is gone: a message cut short fails its parse instead of waiting for the rest. */
  void broken() {
    if (arriving != null) arriving.broken();
    arriving = null;
  }

  private interface Parse {
    List<Message> messages() throws IOException;
  }

  private void parse(Parse parse) {
    List<Message> messages;
    try {
      messages = parse.messages();
    } catch (IOException e) {
      return; // a frame we cannot read answers no call of ours
    }
    deliver.accept(messages);
  }

  /** Runs {@code step} once what arrived before it is handled, whether or not that failed. */
  private void after(Runnable step, boolean onItsOwnThread) {
    CompletableFuture<Void> ready = inOrder.exceptionally(e -> null);
    inOrder = onItsOwnThread ? ready.thenRunAsync(step, parsers) : ready.thenRun(step);
  }
}
