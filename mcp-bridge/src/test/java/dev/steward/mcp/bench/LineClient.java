package dev.steward.mcp.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * An MCP client over stdio reduced to its wire: one thread writes a request's line and reads lines
 * until its answer, with no framework between. Both stdio servers are timed with it in the same
 * blocks, so that what its figures show is the servers' own cost, where the SDK's Java client adds
 * about half a millisecond of its own to every call of either.
 */
final class LineClient implements AutoCloseable {

  private final Process process;
  private final OutputStream in;
  private final BufferedReader out;
  private final byte[][] calls;
  private int next = 1;

  private LineClient(Process process, String tool, String argumentsJson) {
    this.process = process;
    this.in = process.getOutputStream();
    this.out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8), 64 * 1024);
    // Each call's line made before timing: the client's own work is writing and reading.
    this.calls = new byte[4096][];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = ("{\"jsonrpc\":\"2.0\",\"id\":" + (i + 1000)
              + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":"
              + argumentsJson + "}}\n")
          .getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Starts the server, initializes it, and checks that one call answers with {@code expect}. */
  static LineClient start(
      List<String> command,
      Map<String, String> env,
      String tool,
      String argumentsJson,
      String expect)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(env);
    LineClient c = new LineClient(pb.start(), tool, argumentsJson);
    c.send(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"steward-bench-lines\",\"version\":\"1\"}}}\n")
        .getBytes(StandardCharsets.UTF_8));
    c.answer(1);
    c.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
        .getBytes(StandardCharsets.UTF_8));
    String first = c.call();
    if (!first.contains(expect) || first.contains("\"isError\":true"))
      throw new IllegalStateException("the read failed: " + first);
    return c;
  }

  /** One call, answered: its answer's line. */
  String call() throws IOException {
    int i = next++ % calls.length;
    send(calls[i]);
    return answer(i + 1000);
  }

  void calls(int n, List<Double> into) throws IOException {
    for (int k = 0; k < n; k++) {
      long start = System.nanoTime();
      call();
      if (into != null) into.add((System.nanoTime() - start) / 1e6);
    }
  }

  private void send(byte[] line) throws IOException {
    in.write(line);
    in.flush();
  }

  /** Reads lines until the answer to {@code id} (a notification may come before it). */
  private String answer(int id) throws IOException {
    String a = "\"id\":" + id + ",";
    String b = "\"id\":" + id + "}";
    while (true) {
      String line = out.readLine();
      if (line == null) throw new IOException("the server ended before answering " + id);
      if (line.contains(a) || line.contains(b)) return line;
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
    process.destroy();
  }
}
