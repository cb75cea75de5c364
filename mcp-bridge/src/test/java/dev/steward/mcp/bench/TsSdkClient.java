package dev.steward.mcp.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The official TypeScript SDK's MCP client (what the desktop agents people run are built on),
 * driven in blocks from the bench: a node process of its own starts the server over stdio, and
 * times each block of calls it is asked for. It gives the MCP rows a second, widely used client
 * beside the SDK's Java one.
 */
final class TsSdkClient implements AutoCloseable {

  private final Process process;
  private final OutputStream in;
  private final BufferedReader out;

  private TsSdkClient(Process process) {
    this.process = process;
    this.in = process.getOutputStream();
    this.out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8), 64 * 1024);
  }

  /** Starts the client on {@code command}; one call must answer with {@code expect} first. */
  static TsSdkClient start(
      Path repo,
      List<String> command,
      Map<String, String> env,
      String tool,
      ObjectNode arguments,
      String expect)
      throws IOException {
    ObjectNode setup =
        Json.object().put("command", command.get(0)).put("tool", tool).put("expect", expect);
    setup.set("args", Json.mapper().valueToTree(command.subList(1, command.size())));
    java.util.Map<String, String> all = new java.util.HashMap<>(env);
    for (String key : List.of("PATH", "HOME"))
      if (System.getenv(key) != null) all.putIfAbsent(key, System.getenv(key));
    setup.set("env", Json.mapper().valueToTree(all));
    setup.set("arguments", arguments);
    Path node = repo.resolve("mcp-bridge/src/test/node");
    ProcessBuilder pb = new ProcessBuilder(
            "node", node.resolve("bench-client.mjs").toString(), Json.write(setup))
        .directory(node.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    TsSdkClient c = new TsSdkClient(pb.start());
    String ready = c.out.readLine();
    if (!"ready".equals(ready))
      throw new IllegalStateException("the TypeScript SDK client did not start: " + ready);
    return c;
  }

  /** {@code n} calls, timed by the client; their times (ms) go to {@code into} unless null. */
  void calls(int n, List<Double> into) {
    try {
      in.write((n + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line = out.readLine();
      if (line == null) throw new IllegalStateException("the TypeScript SDK client ended");
      if (into == null) return;
      for (String t : line.strip().split(" ")) into.add(Double.parseDouble(t));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws IOException {
    in.write("quit\n".getBytes(StandardCharsets.UTF_8));
    in.flush();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
