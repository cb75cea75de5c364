package dev.steward.service;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A bare JDK WebSocket for sending frames by hand and reading what comes back. */
public final class RawWebSocket implements AutoCloseable {

  public final WebSocket ws;
  private final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
  public final CompletableFuture<Integer> closed = new CompletableFuture<>();

  public RawWebSocket(int port, String secret) {
    StringBuilder partial = new StringBuilder();
    this.ws = HttpClient.newHttpClient()
        .newWebSocketBuilder()
        .header("Authorization", "Bearer " + secret)
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/rpc"), new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
              frames.add(partial.toString());
              partial.setLength(0);
            }
            w.request(1);
            return null;
          }

          @Override
          public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
            closed.complete(code);
            return null;
          }

          @Override
          public void onError(WebSocket w, Throwable error) {
            closed.complete(-1);
          }
        })
        .join();
  }

  public String roundTrip(String frame) throws Exception {
    ws.sendText(frame, true).get(5, TimeUnit.SECONDS);
    return next();
  }

  public String next() throws InterruptedException {
    String f = frames.poll(5, TimeUnit.SECONDS);
    if (f == null) throw new AssertionError("no frame within 5 s");
    return f;
  }

  @Override
  public void close() {
    ws.abort();
  }
}
