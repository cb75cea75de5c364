package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code code.run} in the real bubblewrap sandbox, through the real gate (every run confirmed):
 * it computes, writes its workspace, and cannot read outside it, reach the network, fork without
 * end, fill the disk, outlive its time or see the service's environment.
 */
class CodeRunIT {

  static TestService t;
  static StewardClient ui;
  static StewardClient agent;
  static Path workspace;

  @BeforeAll
  static void start() throws Exception {
    assertTrue(
        Files.isExecutable(Path.of("/usr/bin/bwrap")),
        "the code tests need bubblewrap (./steward test installs it)");
    t = TestService.start();
    workspace = Files.createDirectories(t.root.resolve("code"));
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterAll
  static void stop() {
    t.close();
  }

  static void enable(boolean on) {
    PolicyDocument doc = ui.call(
            dev.steward.protocol.method.Methods.POLICY_GET,
            java.util.Map.of(),
            PolicyDocument.class)
        .withCode(new PolicyDocument.Code(on, false, workspace.toString()));
    ui.call(dev.steward.protocol.method.Methods.POLICY_UPDATE, doc, PolicyDocument.class);
  }

  static ToolResult run(Object... kv) {
    enable(true);
    return TestService.execConfirmed(ui, agent, "code.run", args(kv));
  }

  static JsonNode ok(ToolResult r) {
    assertTrue(r.ok(), String.valueOf(r.error()));
    return r.value();
  }

  @Test
  void off_until_the_user_turns_it_on_and_every_run_asks() {
    enable(false);
    ToolResult off =
        TestService.exec(agent, "code.run", args("language", "python", "code", "print(1)"));
    assertEquals(ToolErrorCodes.UNAVAILABLE, off.error().code());
    assertTrue(off.error().message().contains("Settings"), off.error().message());
    enable(true);
    ToolResult unasked =
        TestService.exec(agent, "code.run", args("language", "python", "code", "print(1)"));
    assertEquals(
        ToolErrorCodes.TOKEN_MISSING, unasked.error().code(), String.valueOf(unasked.error()));
    JsonNode print = args("language", "python", "code", "print(1)");
    assertEquals(
        dev.steward.protocol.tool.Risk.MEDIUM,
        agent.preflight(TestService.id(), "code.run", print).risk());
    PolicyDocument networked = ui.call(
            dev.steward.protocol.method.Methods.POLICY_GET,
            java.util.Map.of(),
            PolicyDocument.class)
        .withCode(new PolicyDocument.Code(true, true, workspace.toString()));
    ui.call(dev.steward.protocol.method.Methods.POLICY_UPDATE, networked, PolicyDocument.class);
    assertEquals(
        dev.steward.protocol.tool.Risk.HIGH,
        agent.preflight(TestService.id(), "code.run", print).risk(),
        "with the network a run is high risk (SPEC §13): no grant can waive its click");
    enable(true);
  }

  @Test
  void python_and_bash_compute_and_what_they_write_in_the_workspace_stays_and_is_listed() {
    JsonNode py = ok(run(
        "language",
        "python",
        "code",
        "import sys\nprint(2+2)\nopen('out.txt','w').write(sys.stdin.read())",
        "stdin",
        "from stdin"));
    assertEquals("4\n", py.path("stdout").asText());
    assertEquals(0, py.path("exit_code").asInt());
    assertEquals("out.txt", py.path("files").get(0).asText());
    JsonNode sh = ok(run(
        "language",
        "bash",
        "code",
        "echo \"$1-$GREETING\"; cat out.txt",
        "args",
        java.util.List.of("a"),
        "env",
        java.util.Map.of("GREETING", "hi")));
    assertEquals("a-hi\nfrom stdin", sh.path("stdout").asText());
  }

  @Test
  void nothing_outside_the_workspace_is_visible_not_even_the_services_own_folders()
      throws Exception {
    Path key = Files.createDirectories(t.outside.resolve(".ssh")).resolve("id_rsa");
    Files.writeString(key, "PRIVATE KEY");
    String code = "import os\n"
        + "for p in ['" + key + "', '" + t.home.config().resolve("token.key") + "', '/root/.ssh', '"
        + t.ro + "']:\n"
        + "  print(p, os.path.exists(p))\n"
        + "print(sorted(os.listdir('/home')))";
    JsonNode v = ok(run("language", "python", "code", code));
    assertFalse(v.path("stdout").asText().contains("True"), v.path("stdout").asText());
    assertTrue(
        v.path("stdout").asText().contains("['sandbox']"), v.path("stdout").asText());
  }

  @Test
  void no_socket_reaches_out_not_even_to_loopback() throws Exception {
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      JsonNode v = ok(run(
          "language",
          "python",
          "code",
          "import socket\ntry:\n  socket.create_connection(('127.0.0.1', "
              + listening.getLocalPort()
              + "), 2)\n  print('connected')\nexcept OSError as e:\n  print('refused', e)"));
      assertTrue(
          v.path("stdout").asText().startsWith("refused"), v.path("stdout").asText());
    }
  }

  @Test
  void the_environment_is_the_sandboxes_own() {
    JsonNode v =
        ok(run("language", "bash", "code", "env | sort; cat /proc/1/environ | tr '\\0' '\\n'"));
    String out = v.path("stdout").asText();
    assertTrue(out.contains("HOME=/home/sandbox"), out);
    for (String name : System.getenv().keySet()) {
      if (java.util.Set.of("PATH", "HOME", "LANG", "PYTHONDONTWRITEBYTECODE", "PWD", "SHLVL", "_")
          .contains(name)) continue;
      assertFalse(out.contains(name + "="), name + " reached the sandbox:\n" + out);
    }
  }

  @Test
  void a_fork_bomb_a_full_disk_and_an_endless_loop_are_stopped_and_leave_nothing_behind()
      throws Exception {
    JsonNode bomb =
        ok(run("language", "bash", "code", ":(){ :|:& };: ; sleep 1; echo after", "timeout_s", 20));
    assertTrue(
        bomb.path("stderr").asText().contains("fork"),
        bomb.toString().substring(0, Math.min(500, bomb.toString().length())));
    JsonNode disk = ok(
        run(
            "language",
            "python",
            "code",
            "f = open('big.bin', 'wb')\ntry:\n  for i in range(200): f.write(b'x' * (1 << 20))\nexcept OSError as e:\n  print('stopped', e.errno)"));
    assertTrue(disk.path("stdout").asText().startsWith("stopped"), disk.toString());
    assertTrue(Files.size(workspace.resolve("big.bin")) <= 64L << 20);
    long start = System.nanoTime();
    // Durations no other process on the machine is likely to sleep for: they are how the
    // sandbox's processes are told apart from everything else running.
    ToolResult endless =
        run("language", "bash", "code", "sleep 31337 & sleep 31338", "timeout_s", 2);
    assertEquals(ToolErrorCodes.TIMEOUT, endless.error().code(), String.valueOf(endless.error()));
    assertTrue((System.nanoTime() - start) / 1_000_000 < 15_000, "stopped near its limit");
    // The sandbox's processes are killed with it; on a loaded machine reaping them takes a moment.
    long left = -1;
    for (long deadline = System.nanoTime() + 10_000_000_000L;
        left != 0 && System.nanoTime() < deadline; ) {
      Thread.sleep(100);
      left = ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().orElse("").contains("sleep 3133"))
          .count();
    }
    assertEquals(0, left, "nothing of the run is left");
  }

  @Test
  void input_the_program_never_reads_does_not_hold_it_past_its_time() {
    long start = System.nanoTime();
    ToolResult r =
        run("language", "bash", "code", "sleep 30", "stdin", "x".repeat(900_000), "timeout_s", 2);
    assertEquals(ToolErrorCodes.TIMEOUT, r.error().code(), String.valueOf(r.error()));
    assertTrue((System.nanoTime() - start) / 1_000_000 < 15_000, "stopped near its limit");
  }

  @Test
  void tmp_is_bounded_too() {
    JsonNode v = ok(run(
        "language",
        "python",
        "code",
        "f = open('/tmp/fill', 'wb')\ntry:\n  for i in range(1024): f.write(b'x' * (1 << 20))\n  print('filled')\n"
            + "except OSError as e:\n  print('stopped', e.errno)"));
    assertTrue(v.path("stdout").asText().startsWith("stopped"), v.toString());
  }

  @Test
  void a_reserved_variable_is_refused_naming_it() {
    ToolResult r =
        run("language", "bash", "code", "true", "env", java.util.Map.of("LD_PRELOAD", "/x.so"));
    assertEquals(ToolErrorCodes.VALIDATION_ERROR, r.error().code());
    assertEquals("/env/LD_PRELOAD", r.error().field());
    assertNotEquals(null, r.error().message());
  }
}
