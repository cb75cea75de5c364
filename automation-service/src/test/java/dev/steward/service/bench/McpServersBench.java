package dev.steward.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Mcp;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.ServiceProcess;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code ./steward bench mcp} (the external-server half): a read tool of the reference filesystem
 * server called through Steward's gate (agent → service → server) against the same call made by a
 * bare SDK client straight to its own copy of the server, interleaved in rounds so both meet the
 * same machine; and the time from the service's start until that server's tools are listed.
 */
public final class McpServersBench {

  private static final int WARM = Integer.getInteger("mcp.bench.warm", 600);
  private static final int ROUNDS = 10;
  private static final int PER_ROUND = 200;

  /** Calls of each kind after which the JIT has all but stopped (its CPU per call near zero). */
  private static final int SETTLED = Integer.getInteger("mcp.bench.settled", 8000);

  /**
   * One measurement after {@code calls} calls of each kind: p50s of the three calls, and the
   * service's CPU per external call.
   */
  private record Phase(
      int calls, double gate50, double direct50, double own50, double cpuNs, double jitNs) {}

  private McpServersBench() {}

  public static void main(String[] args) throws Exception {
    Path tmp = Files.createTempDirectory("steward-mcp-bench-");
    Path home = tmp.resolve("home");
    Path user = tmp.resolve("user");
    Path shared = tmp.resolve("shared");
    Files.createDirectories(home.resolve("config"));
    Files.createDirectories(user);
    Files.createDirectories(shared);
    Path file = shared.resolve("one-kb.txt");
    Files.writeString(file, "x".repeat(1024));
    Path server = ServiceProcess.repo()
        .resolve(
            "mcp-bridge/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    PolicyDocument doc = PolicyDocument.defaults()
        .withPaths(List.of(new PolicyDocument.PathRoot(shared.toString(), "read")))
        .withMcpServers(Map.of(
            "fs",
            PolicyDocument.McpServer.command(
                "node", List.of(server.toString(), shared.toString()), Map.of())));
    Files.writeString(home.resolve("config/policy.json"), Json.write(doc));

    long t0 = System.nanoTime();
    try (ServiceProcess service = ServiceProcess.start(home, user);
        StewardClient ui = service.client(Role.UI);
        StewardClient agent = service.client(Role.AGENT)) {
      long ready = System.nanoTime() - t0;
      long listed;
      while (true) {
        Mcp.ServersResult r = ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class);
        if (r.servers().get(0).state().equals("running")
            && !r.servers().get(0).tools().isEmpty()) {
          listed = System.nanoTime() - t0;
          break;
        }
        if (System.nanoTime() - t0 > Duration.ofSeconds(60).toNanos())
          throw new IllegalStateException("the server never listed its tools: " + r);
        Thread.sleep(5);
      }
      Mcp.Server fs =
          ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class).servers().get(0);
      ui.call(Mcp.ACCEPT, new Mcp.AcceptParams("fs", fs.shown()), Mcp.AcceptResult.class);

      JsonNode read = Json.mapper()
          .valueToTree(new Execute.Params(
              "bench",
              "call",
              "mcp.fs.read_text_file",
              Json.object().put("path", file.toString()),
              null,
              null));
      JsonNode own = Json.mapper()
          .valueToTree(new Execute.Params(
              "bench",
              "call",
              "files.read_text",
              Json.object().put("path", file.toString()),
              null,
              null));
      McpSyncClient direct = McpClient.sync(new StdioClientTransport(
              ServerParameters.builder("node")
                  .args(server.toString(), shared.toString())
                  .build(),
              new JacksonMcpJsonMapper(new ObjectMapper())))
          .requestTimeout(Duration.ofSeconds(30))
          .build();
      try {
        direct.initialize();
        McpSchema.CallToolRequest call =
            new McpSchema.CallToolRequest("read_text_file", Map.of("path", file.toString()));
        long pid = service.process.pid();
        Phase early = measure(0, WARM, agent, read, own, direct, call, pid);
        // Each side's JIT (the service's, this client's, the server's V8) keeps compiling for
        // thousands of calls more; measured again once it has all but stopped.
        Phase settled = measure(WARM, SETTLED, agent, read, own, direct, call, pid);
        System.out.println();
        System.out.printf("%-46s | %-22s | %s%n", "measure", "result", "note");
        System.out.println("-".repeat(46) + "-|-" + "-".repeat(22) + "-|-" + "-".repeat(24));
        for (Phase ph : List.of(early, settled)) {
          String after = "after " + ph.calls() + " calls";
          row(
              "external read_text_file through the gate p50",
              ms(ph.gate50()),
              after + ": agent → service → server-filesystem");
          row("the same call, bare SDK client p50", ms(ph.direct50()), "baseline, same run");
          row(
              "Steward's files.read_text, same file, p50",
              ms(ph.own50()),
              "the gate's own cost on a read");
          row(
              "gate / direct (p50)",
              String.format("%.2f×", ph.gate50() / ph.direct50()),
              after + ": target ≤ 1.5×, aim ≤ 1.2×");
          row(
              "service CPU per external call",
              ms(ph.cpuNs()),
              String.format("its JIT's besides: %.2f ms", ph.jitNs() / 1e6));
        }
        row("service start → ready", ms(ready), "servers start after it answers");
        row("service start → fs tools listed", ms(listed), "node start + initialize + tools/list");
      } finally {
        direct.closeGracefully();
      }
    } finally {
      try (var walk = Files.walk(tmp)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Calls each kind from {@code made} calls up to {@code calls}, then measures. */
  private static Phase measure(
      int made,
      int calls,
      StewardClient agent,
      JsonNode read,
      JsonNode own,
      McpSyncClient direct,
      McpSchema.CallToolRequest call,
      long pid)
      throws java.io.IOException {
    for (int i = made; i < calls; i++) {
      gate(agent, read);
      direct(direct, call);
      gate(agent, own);
    }
    long[] gateNs = new long[ROUNDS * PER_ROUND];
    long[] directNs = new long[ROUNDS * PER_ROUND];
    long[] ownNs = new long[ROUNDS * PER_ROUND];
    long[] cpu = new long[2];
    for (int r = 0; r < ROUNDS; r++) {
      block(() -> direct(direct, call), directNs, r);
      long[] before = ProcessCpu.ticks(pid);
      block(() -> gate(agent, read), gateNs, r);
      long[] after = ProcessCpu.ticks(pid);
      cpu[0] += after[0] - before[0];
      cpu[1] += after[1] - before[1];
      block(() -> gate(agent, own), ownNs, r);
    }
    Arrays.sort(gateNs);
    Arrays.sort(directNs);
    Arrays.sort(ownNs);
    double measured = ROUNDS * PER_ROUND;
    return new Phase(
        calls,
        gateNs[gateNs.length / 2],
        directNs[directNs.length / 2],
        ownNs[ownNs.length / 2],
        cpu[0] * ProcessCpu.NS_PER_TICK / measured,
        cpu[1] * ProcessCpu.NS_PER_TICK / measured);
  }

  /** One round's block of calls, each timed into its place in {@code into}. */
  private static void block(Runnable call, long[] into, int round) {
    for (int i = 0; i < PER_ROUND; i++) {
      long s = System.nanoTime();
      call.run();
      into[round * PER_ROUND + i] = System.nanoTime() - s;
    }
  }

  private static void gate(StewardClient agent, JsonNode read) {
    JsonNode r = agent.call(Methods.TOOL_EXECUTE, read, JsonNode.class);
    if (!r.path("ok").asBoolean()) throw new IllegalStateException(r.toString());
  }

  private static void direct(McpSyncClient client, McpSchema.CallToolRequest call) {
    McpSchema.CallToolResult r = client.callTool(call);
    if (Boolean.TRUE.equals(r.isError())) throw new IllegalStateException(r.toString());
  }

  private static String ms(double ns) {
    return String.format("%.2f ms", ns / 1e6);
  }

  private static void row(String measure, String result, String note) {
    System.out.printf("%-46s | %-22s | %s%n", measure, result, note);
  }
}
