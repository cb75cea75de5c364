package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** Step 6: runs a tool on its own thread with its time limit; {@link #cancel} stops it. */
final class ToolRunner implements AutoCloseable {

  private final ExecutorService pool;
  private final Map<String, Future<JsonNode>> running = new ConcurrentHashMap<>();

  ToolRunner() {
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "tool-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  JsonNode run(String callId, Tool tool, JsonNode args, ToolContext ctx) throws ToolFailure {
    Future<JsonNode> future = pool.submit(() -> tool.run(args, ctx));
    Future<JsonNode> previous = running.putIfAbsent(callId, future);
    try {
      return future.get(tool.timeLimit().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new ToolFailure(ToolErrorCodes.TIMEOUT, tool.name() + " did not finish within " + tool.timeLimit().toSeconds() + " s and was stopped");
    } catch (CancellationException e) {
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the service is shutting down");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ToolFailure f) throw f;
      throw new ToolFailure(ToolErrorCodes.INTERNAL, tool.name() + " failed unexpectedly (" + cause.getClass().getSimpleName() + ")");
    } finally {
      if (previous == null) running.remove(callId, future);
    }
  }

  boolean cancel(String callId) {
    Future<JsonNode> f = running.get(callId);
    return f != null && f.cancel(true);
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
