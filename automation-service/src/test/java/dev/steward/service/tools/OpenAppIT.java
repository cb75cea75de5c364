package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.TestService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** apps.open starts only allowlisted programs, with the target as exactly one argument, no shell. */
class OpenAppIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;
  Path base;
  Path out;
  Path pwned;

  @BeforeEach
  void start() throws Exception {
    base = Files.createTempDirectory("steward-apps-").toRealPath();
    out = base.resolve("argv.bin");
    pwned = base.resolve("pwned");
    Path recorder = base.resolve("argv-recorder");
    // The test program: writes each argument it receives, NUL-terminated, to a file.
    Files.writeString(
        recorder,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > '" + out + ".tmp' && mv '"
            + out + ".tmp' '" + out + "'\n");
    Files.setPosixFilePermissions(recorder, PosixFilePermissions.fromString("rwx------"));
    t = TestService.start(p -> new PolicyDocument(
        p.paths(),
        List.of(
            new PolicyDocument.AppEntry(
                "recorder", List.of(recorder.toString(), "--open", "{target}")),
            new PolicyDocument.AppEntry("no-target", List.of(recorder.toString()))),
        p.hosts(),
        // Standing for the user's click on every file opened under the folder, were it honoured.
        List.of(new PolicyDocument.StandingGrant(
            "apps-here", "apps.open", List.of(p.paths().get(0).root()), null, null)),
        Map.of(),
        p.confirmUnder()));
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterEach
  void stop() throws IOException {
    t.close();
    try (var all = Files.walk(base)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  private ToolResult open(JsonNode args) {
    String trace = id();
    String token = ui.grant(new Grant.Params(
            trace, List.of(new Grant.Call("apps.open", args)), null, null, 60, null))
        .confirmToken();
    return agent.execute(new Execute.Params(trace, id(), "apps.open", args, token, null));
  }

  private List<String> argv() throws Exception {
    for (int i = 0; i < 250 && !Files.exists(out); i++) Thread.sleep(20);
    String raw = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
    return Arrays.asList(raw.substring(0, raw.length() - 1).split("\0", -1));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "calc & whoami",
        "$(id)",
        "`id`",
        "a; touch pwned",
        "line1\nline2",
        "quote\" and 'single'",
        "| cat /etc/passwd",
        "--help"
      })
  void a_target_arrives_as_exactly_one_argument_and_never_reaches_a_shell(String name)
      throws Exception {
    ToolResult r = open(args("app", "recorder", "target", name));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertTrue(r.value().get("pid").asLong() > 0);
    assertEquals(List.of("--open", t.root.resolve(name).toString()), argv());
    assertFalse(Files.exists(pwned), "nothing ran a shell command");
  }

  @Test
  void an_http_url_is_passed_as_it_is() throws Exception {
    assertTrue(open(args("app", "recorder", "target", "https://en.wikipedia.org/wiki/Steward"))
        .ok());
    assertEquals(List.of("--open", "https://en.wikipedia.org/wiki/Steward"), argv());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "file:///etc/passwd",
        "javascript:alert(1)",
        "https://ok@evil.example/",
        "http://127.0.0.1:8080/",
        "http://169.254.169.254/latest",
        "http://[::1]/",
        "http://localhost/",
        "data:text/html,hi",
        "chrome://settings"
      })
  void refused_urls_never_start_anything(String url) throws Exception {
    ToolResult r = open(args("app", "recorder", "target", url));
    assertEquals(ToolErrorCodes.SCOPE_DENIED, r.error().code(), r.error().message());
    Thread.sleep(100);
    assertFalse(Files.exists(out));
  }

  @Test
  void an_app_not_in_the_allowlist_is_refused_before_any_dialog() {
    dev.steward.protocol.method.Preflight.Result shown =
        ui.preflight(id(), "apps.open", args("app", "xterm"));
    assertEquals("deny", shown.decision(), shown.toString());
    assertEquals(ToolErrorCodes.SCOPE_DENIED, shown.code());
    assertEquals("/app", shown.field());
    ToolResult r = open(args("app", "xterm"));
    assertEquals(ToolErrorCodes.SCOPE_DENIED, r.error().code());
    assertEquals("/app", r.error().field());
  }

  @Test
  void a_target_outside_the_folders_is_refused() {
    assertEquals(
        ToolErrorCodes.SCOPE_DENIED,
        open(args("app", "recorder", "target", "/etc/passwd")).error().code());
  }

  @Test
  void an_app_without_a_target_slot_refuses_a_target_and_runs_without_one() throws Exception {
    assertEquals(
        ToolErrorCodes.VALIDATION_ERROR,
        open(args("app", "no-target", "target", "x.txt")).error().code());
    assertEquals(
        "deny",
        ui.preflight(id(), "apps.open", args("app", "no-target", "target", "x.txt"))
            .decision());
    assertTrue(open(args("app", "recorder")).ok());
    assertEquals(List.of("--open"), argv());
  }

  /** A grant for a folder would cover every app on the list: none stands for an app's click. */
  @Test
  void no_standing_grant_stands_for_opening_an_app() throws Exception {
    Path file = t.root.resolve("report.pdf");
    Files.writeString(file, "x");
    var args = args("app", "recorder", "target", file.toString());
    dev.steward.protocol.method.Preflight.Result pre = ui.preflight(id(), "apps.open", args);
    assertEquals(dev.steward.protocol.method.Preflight.CONFIRM, pre.decision());
    org.junit.jupiter.api.Assertions.assertNull(pre.grantFolders());
    var r = agent.execute(new Execute.Params(id(), id(), "apps.open", args, null, null));
    assertEquals(ToolErrorCodes.TOKEN_MISSING, r.error().code());
    org.junit.jupiter.api.Assertions.assertFalse(Files.exists(out));
  }

  /**
   * The app started reaches the network as it will — a browser fetches what a page it opens names
   * — outside Steward's proxy: the tool says it can send data out.
   */
  @Test
  void opening_an_app_is_declared_able_to_send_data_out() {
    assertTrue(agent.tools().stream()
        .filter(d -> d.name().equals("apps.open"))
        .findFirst()
        .orElseThrow()
        .sends());
  }

  @Test
  void opening_an_app_always_needs_the_users_click() {
    var r = agent.execute(
        new Execute.Params(id(), id(), "apps.open", args("app", "recorder"), null, null));
    assertEquals(ToolErrorCodes.TOKEN_MISSING, r.error().code());
  }
}
