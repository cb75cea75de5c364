package dev.steward.service.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Role;
import dev.steward.service.TestService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official MCP conformance suite's server scenarios against Steward's {@code /mcp}. The suite
 * sends no Authorization, so a small proxy of the test ({@code bearer-proxy.mjs}) adds the mcp
 * role's Bearer secret and re-addresses the client's own loopback Host and Origin; any other Host
 * or Origin reaches the service as it came.
 *
 * <p>They apply and pass: {@code server-initialize}, {@code ping}, {@code tools-list}, {@code
 * logging-set-level}, {@code server-sse-multiple-streams}, {@code dns-rebinding-protection}; and
 * {@code server-sse-polling} with no failure (its three checks are SHOULDs of resumable streams,
 * SEP-1699, which the SDK's servlet transport does not offer: warnings). They do not apply: the
 * {@code tools-call-*} and {@code json-schema-2020-12} scenarios call the suite's own test tools
 * (Steward offers its own tools, tested by McpHttpIT), and Steward serves no resources, prompts,
 * completions, sampling or elicitation (SPEC §12: nothing is asked of the guarded model).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpServerConformanceIT {

  static final Path NODE = Path.of(
          System.getenv().getOrDefault("STEWARD_REPO", "../"), "mcp-bridge/src/test/node")
      .toAbsolutePath()
      .normalize();

  TestService t;
  Process proxy;
  int proxyPort;

  @BeforeAll
  void start() throws Exception {
    t = TestService.start();
    proxy = new ProcessBuilder(
            "node",
            NODE.resolve("bearer-proxy.mjs").toString(),
            Integer.toString(t.port()),
            t.secret(Role.MCP))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String first = new BufferedReader(
            new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8))
        .readLine();
    assertTrue(first != null && first.strip().matches("\\d+"), "the proxy's port: " + first);
    proxyPort = Integer.parseInt(first.strip());
  }

  @AfterAll
  void stop() {
    if (proxy != null) proxy.destroyForcibly();
    if (t != null) t.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "server-initialize",
        "ping",
        "tools-list",
        "logging-set-level",
        "server-sse-multiple-streams",
        "server-sse-polling",
        "dns-rebinding-protection"
      })
  void a_scenario_that_applies_passes(String scenario) throws Exception {
    Path out = Files.createTempDirectory("steward-conformance-server-");
    Process p = new ProcessBuilder(
            NODE.resolve("node_modules/.bin/conformance").toString(),
            "server",
            "--url",
            "http://127.0.0.1:" + proxyPort + "/mcp",
            "--scenario",
            scenario,
            "-o",
            out.toString())
        .redirectErrorStream(true)
        .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), scenario + " ends");
    List<String> failed = new ArrayList<>();
    int checks = 0;
    try (var walk = Files.walk(out)) {
      for (Path c :
          walk.filter(f -> f.getFileName().toString().equals("checks.json")).toList()) {
        for (var check : Json.parse(Files.readString(c))) {
          checks++;
          if ("FAILURE".equals(check.path("status").asText())) {
            failed.add(
                check.path("id").asText() + ": " + check.path("errorMessage").asText());
          }
        }
      }
    }
    assertTrue(checks > 0, scenario + " ran no check:\n" + output);
    assertEquals(List.of(), failed, scenario + ":\n" + output);
    assertEquals(0, p.exitValue(), scenario + ":\n" + output);
  }
}
