package dev.steward.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./steward bench code}: {@code code.run} of {@code print(1)} through the service (agent →
 * gate with the user's token → sandbox → answer) against {@code python3 -c 'print(1)'} started
 * bare, interleaved call by call. The token is granted before each timed call, as a click would,
 * and each pair is a tenth of a second apart, as a user's runs are at least.
 */
final class CodeBench {

  private static final int WARM = 10;
  private static final int RUNS = 60;
  private static final int SETTLE_MS = 100;

  private CodeBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    Path home = tmp.resolve("code-home");
    Path workspace = Files.createDirectories(tmp.resolve("code-workspace"));
    Files.createDirectories(home.resolve("config"));
    PolicyDocument doc = PolicyDocument.defaults()
        .withPaths(List.of(new PolicyDocument.PathRoot(tmp.toString(), "read_write")))
        .withCode(new PolicyDocument.Code(true, false, workspace.toString()));
    Files.writeString(home.resolve("config/policy.json"), Json.write(doc));
    try (ServiceProcess service = ServiceProcess.start(home, tmp);
        StewardClient agent = service.client(Role.AGENT);
        StewardClient ui = service.client(Role.UI)) {
      long[] sandboxed = new long[RUNS];
      long[] bare = new long[RUNS];
      JsonNode args = Json.object().put("language", "python").put("code", "print(1)");
      for (int i = -WARM; i < RUNS; i++) {
        String token = ui.grant(new Grant.Params(
                "b", List.of(new Grant.Call("code.run", args)), null, null, 60, null))
            .confirmToken();
        long t0 = System.nanoTime();
        JsonNode r = agent.call(
            Methods.TOOL_EXECUTE,
            new Execute.Params("b", "c" + i, "code.run", args, token, null),
            JsonNode.class);
        long t1 = System.nanoTime();
        if (!r.path("ok").asBoolean()) throw new IllegalStateException("code.run failed: " + r);
        // The service starts the next run's sandbox once a run ends; a user's next run comes
        // seconds later. Waiting keeps that work from slowing the bare run measured next.
        Thread.sleep(SETTLE_MS);
        long t2 = System.nanoTime();
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", "print(1)").start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        long t3 = System.nanoTime();
        if (i >= 0) {
          sandboxed[i] = t1 - t0;
          bare[i] = t3 - t2;
        }
      }
      Arrays.sort(sandboxed);
      Arrays.sort(bare);
      double s = sandboxed[RUNS / 2] / 1e6;
      double b = bare[RUNS / 2] / 1e6;
      table.add(new String[] {
        "code.run print(1), p50 (through the service, sandboxed)",
        String.format(Locale.ROOT, "%.1f ms vs %.1f ms bare python3 = %.2f×", s, b, s / b),
        "target ≤ 1.5× (aim 1.2×)"
      });
    }
  }
}
