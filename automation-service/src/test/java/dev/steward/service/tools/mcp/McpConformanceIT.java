package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The official MCP conformance suite's client scenarios that apply to a client of tools only,
 * run against Steward's client: {@code initialize}, {@code tools_call} and {@code sse-retry}
 * (resuming a Streamable HTTP stream the server closed, after its retry time, from the last
 * event: SEP-1699, which Steward's own HTTP transport does and the SDK 2.1.0 one did not) pass.
 * Elicitation is left out by design (SPEC §12: nothing the guarded model could answer is asked of
 * it), and so are the OAuth scenarios (Steward reaches servers without sign-in for now).
 */
class McpConformanceIT {

  @ParameterizedTest
  @ValueSource(strings = {"initialize", "tools_call", "sse-retry"})
  void a_scenario_passes(String scenario) throws Exception {
    Run run = run(scenario, 60_000, null);
    assertEquals(0, run.exit(), scenario + ":\n" + run.output());
    assertEquals(List.of(), run.failures(), scenario + ":\n" + run.output());
  }

  /**
   * MCP's authorization, as a client that signs a person in: every scenario of the suite's but
   * the two of client credentials (SEP-1046, an extension for programs without a person, which
   * Steward — a person's agent — does not offer). {@code auth/basic-cimd} passes with a warning:
   * Steward registers itself (a URL client id needs a public HTTPS document it does not have).
   * {@code auth/resource-mismatch} passes by refusing to sign in at all, and {@code
   * auth/scope-retry-limit} by not asking the user again for a scope the token already holds.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "auth/metadata-default",
        "auth/metadata-var1",
        "auth/metadata-var2",
        "auth/metadata-var3",
        "auth/basic-cimd",
        "auth/scope-from-www-authenticate",
        "auth/scope-from-scopes-supported",
        "auth/scope-omitted-when-undefined",
        "auth/scope-step-up",
        "auth/scope-retry-limit",
        "auth/token-endpoint-auth-basic",
        "auth/token-endpoint-auth-post",
        "auth/token-endpoint-auth-none",
        "auth/resource-mismatch",
        "auth/pre-registration",
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback"
      })
  void a_sign_in_scenario_passes(String scenario) throws Exception {
    Run run = run(scenario, 60_000, null);
    assertEquals(List.of(), run.failures(), scenario + ":\n" + run.output());
    if (scenario.equals("auth/basic-cimd")) {
      // The suite ends this one in "FAILED" for its warning alone; there must be no other.
      assertEquals(
          List.of("cimd-client-id-used"),
          statuses(run.results(), "WARNING"),
          scenario + ":\n" + run.output());
      return;
    }
    assertEquals(List.of(), statuses(run.results(), "WARNING"), scenario + ":\n" + run.output());
    if (!scenario.equals("auth/resource-mismatch") && !scenario.equals("auth/scope-retry-limit"))
      assertEquals(0, run.exit(), scenario + ":\n" + run.output());
  }

  record Run(int exit, String output, List<String> failures, Path results) {}

  private static Run run(String scenario, int timeoutMs, Path baseline) throws Exception {
    Path module = Path.of("").toAbsolutePath();
    String classpath = String.join(
        java.io.File.pathSeparator,
        module.resolve("target/test-classes").toString(),
        module.resolve("target/classes").toString(),
        module.resolve("../shared-protocol/target/classes").normalize().toString(),
        Files.readString(module.resolve("target/test.classpath")).strip());
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path out = Files.createTempDirectory("steward-conformance-results-");
    ProcessBuilder pb = new ProcessBuilder(
        McpServersIT.NODE.resolve("node_modules/.bin/conformance").toString(),
        "client",
        "--command",
        java + " -cp " + classpath + " " + ConformanceClient.class.getName(),
        "--scenario",
        scenario,
        "--timeout",
        Integer.toString(timeoutMs),
        "-o",
        out.toString());
    if (baseline != null) {
      pb.command().add("--expected-failures");
      pb.command().add(baseline.toString());
    }
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    p.waitFor(120, TimeUnit.SECONDS);
    return new Run(p.exitValue(), output, failures(out), out);
  }

  /** The ids of the run's checks with this status. */
  private static List<String> statuses(Path out, String status) throws Exception {
    List<String> ids = new java.util.ArrayList<>();
    try (var walk = Files.walk(out)) {
      for (Path c :
          walk.filter(p -> p.getFileName().toString().equals("checks.json")).toList()) {
        for (var check : dev.steward.protocol.json.Json.parse(Files.readString(c))) {
          if (status.equals(check.path("status").asText()))
            ids.add(check.path("id").asText());
        }
      }
    }
    return ids;
  }

  /** Every check of the run whose status is FAILURE, by id. */
  private static List<String> failures(Path out) throws Exception {
    try (var walk = Files.walk(out)) {
      List<Path> checks =
          walk.filter(p -> p.getFileName().toString().equals("checks.json")).toList();
      if (checks.isEmpty()) return List.of("no checks.json written");
      List<String> failed = new java.util.ArrayList<>();
      for (Path c : checks) {
        for (var check : dev.steward.protocol.json.Json.parse(Files.readString(c))) {
          if ("FAILURE".equals(check.path("status").asText()))
            failed.add(
                check.path("id").asText() + ": " + check.path("errorMessage").asText());
        }
      }
      return failed;
    }
  }
}
