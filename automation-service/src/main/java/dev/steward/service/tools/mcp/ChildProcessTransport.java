package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * MCP's stdio transport to a server the service starts as its child. Unlike the SDK's own, it
 * gives the child only the environment the user's entry names (plus {@code PATH} and {@code
 * HOME}), keeps its stderr in a log file of bounded size (never shown to the model), bounds each
 * message it reads, writes on a thread of its own (a server that stops reading cannot hold a
 * caller), says when the child exits so a call in flight fails at once, and starts one child only:
 * a transport once closed stays closed.
 */
final class ChildProcessTransport implements TappedTransport {

  private static final Logger LOG = Logger.getLogger(ChildProcessTransport.class.getName());

  /** The most one message from a server may take; a server that sends more is stopped. */
  static final int MAX_MESSAGE_BYTES = 16 << 20;

  /** What the service starts: never through a shell. */
  record Command(
      List<String> command, Map<String, String> environment, Path directory, Path stderrLog) {
    Command {
      command = List.copyOf(command);
      environment = Map.copyOf(environment);
    }
  }

  private final Command command;
  private final McpJsonMapper json;
  private final IntConsumer onExit;
  /** Messages waiting to be written; a server that reads nothing fills it and is stopped. */
  static final int MAX_QUEUED_BYTES = 32 << 20;

  private final java.util.concurrent.ExecutorService writer =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          dev.steward.protocol.util.DaemonThreads.named("mcp-write"));
  private final java.util.concurrent.atomic.AtomicLong queued =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicBoolean started =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile @Nullable Process process;
  private volatile boolean closing;
  private volatile java.util.function.Predicate<JsonNode> tap = m -> false;

  ChildProcessTransport(Command command, McpJsonMapper json, IntConsumer onExit) {
    this.command = command;
    this.json = json;
    this.onExit = onExit;
  }

  @Override
  public void tap(java.util.function.Predicate<JsonNode> first) {
    tap = first;
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.fromRunnable(() -> {
      // The SDK opens a new session on a closed client's next use: that must not start a child
      // no one stops.
      if (closing || !started.compareAndSet(false, true))
        throw new IllegalStateException("this connection to the server has ended");
      ProcessBuilder builder = new ProcessBuilder(ProcessGroup.lead(command.command()));
      builder.environment().clear();
      builder.environment().putAll(command.environment());
      builder.directory(command.directory().toFile());
      Process p;
      try {
        p = builder.start();
      } catch (IOException e) {
        throw new IllegalStateException(
            "cannot start " + command.command().get(0) + ": " + e.getMessage(), e);
      }
      process = p;
      Thread reader = new Thread(() -> read(p, handler), "mcp-read-" + p.pid());
      reader.setDaemon(true);
      reader.start();
      Thread errors = new Thread(
          () -> StderrLog.pump(p.getErrorStream(), command.stderrLog()), "mcp-stderr-" + p.pid());
      errors.setDaemon(true);
      errors.start();
      p.onExit().thenAccept(done -> {
        // What it started goes with it, also when it crashed and left them orphaned.
        ProcessGroup.end(done.pid());
        if (!closing) onExit.accept(done.exitValue());
      });
    });
  }

  private void read(
      Process p, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    try (InputStream in = p.getInputStream()) {
      ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
      byte[] buffer = new byte[65536];
      int n;
      while ((n = in.read(buffer)) > 0) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (buffer[i] != '\n') continue;
          line.write(buffer, start, i - start);
          start = i + 1;
          deliver(line.toString(StandardCharsets.UTF_8), handler);
          line.reset();
        }
        line.write(buffer, start, n - start);
        if (line.size() > MAX_MESSAGE_BYTES) {
          LOG.warning("an MCP server sent a message over " + MAX_MESSAGE_BYTES
              + " bytes; stopping it (" + command.command().get(0) + ")");
          stop(p);
          return;
        }
      }
    } catch (IOException e) {
      if (!closing) LOG.log(Level.FINE, "an MCP server's output ended", e);
    }
  }

  private void deliver(
      String line,
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    if (line.isBlank()) return;
    McpSchema.JSONRPCMessage message;
    try {
      JsonNode read = ServerLink.WIRE.readTree(line);
      if (read == null || !read.isObject()) throw new IOException("not a JSON object");
      if (tap.test(read)) return;
      message = TappedTransport.message(json, read);
    } catch (IOException | RuntimeException e) {
      // A stray line on stdout (a banner, a log line) is not a message; the server goes on.
      LOG.fine("an MCP server wrote a line that is not JSON-RPC; ignored");
      return;
    }
    handler.apply(Mono.just(message)).subscribe();
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.defer(() -> {
      Process p = process;
      if (p == null || !p.isAlive() || closing)
        return Mono.error(new IllegalStateException("the server is not running"));
      byte[] bytes;
      try {
        bytes = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
      } catch (IOException e) {
        return Mono.error(
            new IllegalStateException("cannot encode a message: " + e.getMessage(), e));
      }
      if (queued.addAndGet(bytes.length) > MAX_QUEUED_BYTES) {
        queued.addAndGet(-bytes.length);
        LOG.warning("an MCP server reads nothing of what it is sent; stopping it ("
            + command.command().get(0) + ")");
        dev.steward.protocol.util.DaemonThreads.start("mcp-stop", () -> stop(p));
        return Mono.error(new IllegalStateException("the server does not read what it is sent"));
      }
      try {
        writer.execute(() -> {
          try {
            OutputStream out = p.getOutputStream();
            out.write(bytes);
            out.flush();
          } catch (IOException e) {
            // the server went away; its exit is reported by onExit
          } finally {
            queued.addAndGet(-bytes.length);
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        return Mono.error(new IllegalStateException("the server is not running"));
      }
      return Mono.empty();
    });
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  @Override
  public void close() {
    closing = true;
    writer.shutdownNow();
    Process p = process;
    if (p != null) stop(p);
  }

  /**
   * Closes its input (the stdio way of asking it to stop), then ends it and what it started. The
   * input is closed on a thread of its own: a write blocked on a server that reads nothing would
   * hold the close too.
   */
  private static void stop(Process p) {
    List<ProcessHandle> children = p.descendants().toList();
    dev.steward.protocol.util.DaemonThreads.start("mcp-stop", () -> {
      try {
        p.getOutputStream().close();
      } catch (IOException e) {
        // already gone
      }
    });
    try {
      if (!p.waitFor(500, TimeUnit.MILLISECONDS)) {
        p.destroy();
        if (!p.waitFor(2, TimeUnit.SECONDS)) p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    children.forEach(ProcessHandle::destroyForcibly);
    ProcessGroup.end(p.pid());
  }

  /** The child's process id, for tests that stop a server as a crash would. */
  long pid() {
    Process p = process;
    return p == null ? -1 : p.pid();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }
}
