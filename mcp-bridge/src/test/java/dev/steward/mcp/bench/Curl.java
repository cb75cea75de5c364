package dev.steward.mcp.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The 1 KB read through {@code /mcp} with curl, an MCP client reduced to HTTP: one session, one
 * kept connection, many calls per curl process, each timed by curl itself ({@code time_total}, the
 * process's start not counted). It shows what the endpoint costs apart from the SDK clients' own
 * time.
 */
final class Curl {

  private final Path config;
  /** The size of a good answer: each timed call's answer must have it too. */
  private final String size;

  private Curl(Path config, String size) {
    this.config = config;
    this.size = size;
  }

  static Curl start(int port, String secret, Path dir) throws Exception {
    Files.createDirectories(dir);
    String url = "http://127.0.0.1:" + port + "/mcp";
    String headers = "header = \"Authorization: Bearer " + secret + "\"\n"
        + "header = \"Content-Type: application/json\"\n"
        + "header = \"Accept: application/json, text/event-stream\"\n";
    Path init = dir.resolve("init.cfg");
    Files.writeString(
        init,
        "url = \"" + url + "\"\nrequest = \"POST\"\n" + headers
            + data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"curl\",\"version\":\"1\"}}}")
            + "dump-header = \"" + dir.resolve("headers") + "\"\n");
    String answer = run(init);
    if (!answer.contains("\"protocolVersion\""))
      throw new IllegalStateException("/mcp did not answer initialize: " + answer);
    String session = Files.readAllLines(dir.resolve("headers")).stream()
        .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("mcp-session-id:"))
        .map(l -> l.substring(l.indexOf(':') + 1).strip())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("/mcp gave no session"));
    String request = "url = \"" + url + "\"\nrequest = \"POST\"\n" + headers
        + "header = \"Mcp-Session-Id: " + session + "\"\n"
        + "header = \"MCP-Protocol-Version: 2025-06-18\"\n";
    Path initialized = dir.resolve("initialized.cfg");
    Files.writeString(
        initialized,
        request + data("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    run(initialized);
    String call = request
        + data("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"files.read_text\",\"arguments\":{\"path\":\"~/Steward/one-kb.txt\"}}}");
    Path one = dir.resolve("one.cfg");
    Files.writeString(one, call);
    String read = run(one);
    if (!read.contains("x".repeat(1024)) || read.contains("\"isError\":true"))
      throw new IllegalStateException("the read through /mcp failed: " + read);
    Path config = dir.resolve("calls.cfg");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      if (i > 0) many.append("next\n");
      many.append(call)
          .append("output = \"/dev/null\"\nwrite-out = \"%{size_download} %{time_total}\\n\"\n");
    }
    Files.writeString(config, many);
    return new Curl(config, Integer.toString(read.getBytes(StandardCharsets.UTF_8).length));
  }

  /** Fifty calls in one curl process; their times (ms) go to {@code into} unless it is null. */
  void calls(int n, List<Double> into) {
    if (n != 50) throw new IllegalArgumentException("the config holds 50 calls");
    String out;
    try {
      out = run(config);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    List<String[]> answers =
        out.lines().filter(l -> !l.isBlank()).map(l -> l.split(" ")).toList();
    if (answers.size() != n || answers.stream().anyMatch(a -> !a[0].equals(size)))
      throw new IllegalStateException("a read through /mcp failed: " + out);
    if (into != null) answers.forEach(a -> into.add(Double.parseDouble(a[1]) * 1000));
  }

  /** A curl config line sending {@code json} as the body (quoted as curl's config reads it). */
  private static String data(String json) {
    return "data = \"" + json.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n";
  }

  private static String run(Path config) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("curl", "-sS", "-K", config.toString())
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) throw new IOException("curl failed: " + out);
    return out;
  }
}
