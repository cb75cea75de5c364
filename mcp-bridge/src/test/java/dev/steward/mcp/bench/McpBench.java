package dev.steward.mcp.bench;

import dev.steward.mcp.TestHome;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceSupervisor;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code ./steward bench mcp}: a 1 KB {@code files.read_text} through {@code steward mcp} (the SDK's
 * Java client over stdio) against the same read on the service's WebSocket, and against the
 * reference filesystem server from npm (ungated, unaudited) reading the same file over stdio; and
 * {@code steward mcp} from process start to its answer to {@code initialize}, the service running;
 * and the read through the service's own Streamable HTTP endpoint ({@code /mcp}); and both stdio
 * servers once more with a client reduced to its lines ({@link LineClient}), their own cost.
 * Ratios are against baselines measured in the same run.
 */
public final class McpBench {

  private static final int WARM = Integer.getInteger("mcp.bench.warm", 300);
  private static final int ROUNDS = 500;

  private McpBench() {}

  public static void main(String[] args) throws Exception {
    Path repo = Path.of("").toAbsolutePath();
    TestHome test = TestHome.create("steward-mcp-bench-", "read");
    Path user = test.user();
    Path file = test.steward("one-kb.txt");
    Files.writeString(file, "x".repeat(1024));
    Map<String, String> env = test.environment();
    try (ServiceSupervisor service =
        new ServiceSupervisor(test.places(), test.serviceCommand(repo), env)) {
      service.ensureRunning();
      StewardClient ws = service.connect(Role.AGENT, "mcp-bench");
      McpSyncClient steward =
          client(ServerParameters.builder(repo.resolve("steward").toString())
              .args("mcp")
              .env(env)
              .build());
      McpSyncClient reference = client(ServerParameters.builder("node")
          .args(
              repo.resolve(
                      "mcp-bridge/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
                  .toString(),
              user.resolve("Steward").toString())
          .build());
      McpSchema.CallToolRequest viaSteward =
          new McpSchema.CallToolRequest("files.read_text", Map.of("path", "~/Steward/one-kb.txt"));
      McpSchema.CallToolRequest viaReference =
          new McpSchema.CallToolRequest("read_text_file", Map.of("path", file.toString()));
      Execute.Params direct = new Execute.Params(
          "bench",
          "c",
          "files.read_text",
          Json.object().put("path", "~/Steward/one-kb.txt"),
          null,
          null);
      int port = Json.parse(Files.readString(test.places().serviceInfoFile()))
          .get("port")
          .asInt();
      String secret = Files.readString(test.places().secretFile(Role.MCP)).strip();
      McpSyncClient http = McpClient.sync(
              HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                  .endpoint("/mcp")
                  .requestBuilder(java.net.http.HttpRequest.newBuilder()
                      .header("Authorization", "Bearer " + secret))
                  .build())
          .requestTimeout(Duration.ofSeconds(30))
          .clientInfo(new McpSchema.Implementation("steward-bench", "1"))
          .build();
      http.initialize();
      Curl curl = Curl.start(port, secret, test.steward(".curl"));
      LineClient stewardLines = LineClient.start(
          List.of(repo.resolve("steward").toString(), "mcp"),
          env,
          "files.read_text",
          "{\"path\":\"~/Steward/one-kb.txt\"}",
          "xxxxxxxx");
      LineClient referenceLines = LineClient.start(
          List.of(
              "node",
              repo.resolve(
                      "mcp-bridge/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
                  .toString(),
              user.resolve("Steward").toString()),
          Map.of(),
          "read_text_file",
          Json.write(Json.object().put("path", file.toString())),
          "xxxxxxxx");
      String referenceScript = repo.resolve(
              "mcp-bridge/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
          .toString();
      TsSdkClient stewardTs = TsSdkClient.start(
          repo,
          List.of(repo.resolve("steward").toString(), "mcp"),
          env,
          "files.read_text",
          Json.object().put("path", "~/Steward/one-kb.txt"),
          "xxxxxxxx");
      TsSdkClient referenceTs = TsSdkClient.start(
          repo,
          List.of("node", referenceScript, user.resolve("Steward").toString()),
          Map.of(),
          "read_text_file",
          Json.object().put("path", file.toString()),
          "xxxxxxxx");
      check(steward.callTool(viaSteward));
      check(http.callTool(viaSteward));
      check(reference.callTool(viaReference));

      // Alternating blocks, so that a noisy moment on the machine falls on all three alike.
      List<Double> mcp = new ArrayList<>();
      List<Double> socket = new ArrayList<>();
      List<Double> ref = new ArrayList<>();
      List<Double> overHttp = new ArrayList<>();
      List<Double> overCurl = new ArrayList<>();
      List<Double> mcpLines = new ArrayList<>();
      List<Double> refLines = new ArrayList<>();
      List<Double> mcpTs = new ArrayList<>();
      List<Double> refTs = new ArrayList<>();
      for (int block = 0; block < (WARM + ROUNDS) / 50; block++) {
        boolean measure = block * 50 >= WARM;
        time(50, measure ? mcp : null, () -> steward.callTool(viaSteward));
        time(50, measure ? overHttp : null, () -> http.callTool(viaSteward));
        curl.calls(50, measure ? overCurl : null);
        time(50, measure ? socket : null, () -> ws.execute(direct));
        time(50, measure ? ref : null, () -> reference.callTool(viaReference));
        stewardLines.calls(50, measure ? mcpLines : null);
        referenceLines.calls(50, measure ? refLines : null);
        stewardTs.calls(50, measure ? mcpTs : null);
        referenceTs.calls(50, measure ? refTs : null);
      }
      stewardTs.close();
      referenceTs.close();
      stewardLines.close();
      referenceLines.close();
      steward.closeGracefully();
      http.closeGracefully();
      reference.closeGracefully();

      List<Double> starts = new ArrayList<>();
      for (int i = 0; i < 7; i++) starts.add(startToInitialize(repo, env));
      double mcpP50 = p50(mcp);
      double socketP50 = p50(socket);
      double refP50 = p50(ref);
      String[][] table = {
        {
          "mcp: files.read_text 1 KB via steward mcp (stdio), p50",
          String.format(
              "%.3f ms = %.2f× the service's WebSocket (%.3f ms)",
              mcpP50, mcpP50 / socketP50, socketP50),
          "target ≤ 2.0×, aim ≤ 1.5×"
        },
        {
          "mcp: the same via /mcp (Streamable HTTP, the SDK's Java client), p50",
          String.format(
              "%.3f ms = %.2f× the service's WebSocket", p50(overHttp), p50(overHttp) / socketP50),
          "target ≤ 2.0×, aim ≤ 1.5×"
        },
        {
          "mcp: the same via /mcp, curl's client (one connection kept), p50",
          String.format(
              "%.3f ms = %.2f× the service's WebSocket", p50(overCurl), p50(overCurl) / socketP50),
          "the endpoint's own cost, without the SDK client's"
        },
        {
          "mcp: the same against the reference server-filesystem (stdio), p50",
          String.format("%.2f× (reference %.3f ms: ungated, unaudited)", mcpP50 / refP50, refP50),
          "target ≤ 1.5×, aim ≤ 1.0×"
        },
        {
          "mcp: the read via steward mcp, a line client (no SDK client), p50",
          String.format(
              "%.3f ms = %.2f× the WebSocket, %.2f× the reference (%.3f ms)",
              p50(mcpLines),
              p50(mcpLines) / socketP50,
              p50(mcpLines) / p50(refLines),
              p50(refLines)),
          "the servers' own cost, one client for both"
        },
        {
          "mcp: the read via steward mcp, the TypeScript SDK's client, p50",
          String.format(
              "%.3f ms = %.2f× the WebSocket, %.2f× the reference (%.3f ms)",
              p50(mcpTs), p50(mcpTs) / socketP50, p50(mcpTs) / p50(refTs), p50(refTs)),
          "the client Claude Desktop, Claude Code, Cursor, VS Code use"
        },
        {
          "mcp: steward mcp start → initialize answered (median of 7)",
          String.format("%.0f ms", p50(starts)),
          "target ≤ 500 ms, aim ≤ 300 ms"
        }
      };
      for (String[] row : table) System.out.printf("%-66s %-58s %s%n", row[0], row[1], row[2]);
      ws.close();
    } finally {
      test.delete();
    }
  }

  private static McpSyncClient client(ServerParameters server) {
    McpSyncClient c = McpClient.sync(new StdioClientTransport(server, McpJsonDefaults.getMapper()))
        .requestTimeout(Duration.ofSeconds(30))
        .clientInfo(new McpSchema.Implementation("steward-bench", "1"))
        .build();
    c.initialize();
    return c;
  }

  private static void check(McpSchema.CallToolResult r) {
    if (Boolean.TRUE.equals(r.isError()))
      throw new IllegalStateException("the read failed: " + r.content());
  }

  private static void time(int n, List<Double> into, Supplier<?> call) {
    for (int i = 0; i < n; i++) {
      long start = System.nanoTime();
      call.get();
      if (into != null) into.add((System.nanoTime() - start) / 1e6);
    }
  }

  /** Spawns ./steward mcp, sends initialize, and times until its answer's first line. */
  private static double startToInitialize(Path repo, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(repo.resolve("steward").toString(), "mcp")
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().putAll(env);
    long start = System.nanoTime();
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream();
        BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n")
          .getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line = out.readLine();
      double ms = (System.nanoTime() - start) / 1e6;
      if (line == null || !line.contains("\"result\""))
        throw new IllegalStateException("no answer to initialize: " + line);
      return ms;
    } finally {
      p.destroy();
      p.waitFor();
    }
  }

  private static double p50(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[sorted.length / 2];
  }
}
