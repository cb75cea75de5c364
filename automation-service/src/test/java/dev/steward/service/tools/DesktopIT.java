package dev.steward.service.tools;

import static dev.steward.service.TestService.args;
import static dev.steward.service.TestService.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.ServiceProcess;
import dev.steward.service.TestService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clipboard and notifications on the real parts: an X server (Xvfb) with xclip on the other
 * side, and a notification daemon (dunst) on a session bus. {@code ./steward test} runs the suite
 * under {@code xvfb-run -a dbus-run-session}; without them this test fails, it does not skip.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DesktopIT {

  TestService t;
  StewardClient ui;
  StewardClient agent;

  @BeforeAll
  void start() {
    if (System.getenv("DISPLAY") == null || System.getenv("DBUS_SESSION_BUS_ADDRESS") == null) {
      throw new IllegalStateException(
          "DesktopIT needs DISPLAY and a session bus: run it through ./steward test (xvfb-run -a dbus-run-session)");
    }
    t = TestService.start();
    ui = t.client(Role.UI);
    agent = t.client(Role.AGENT);
  }

  @AfterAll
  void stop() {
    t.close();
  }

  private ToolResult confirmed(String tool, JsonNode args) {
    return TestService.execConfirmed(ui, agent, tool, args);
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  @Test
  void what_clipboard_write_puts_is_what_xclip_reads() throws Exception {
    String text = "Steward → clipboard ✓ " + id();
    ToolResult r = confirmed("clipboard.write", args("text", text));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals(text, run("xclip", "-o", "-selection", "clipboard"));
    Audit.Row row = t.rows(ui, t.row(ui, r.audit().auditId()).callId()).get(0);
    assertFalse(
        row.argsPreview().contains("clipboard ✓"),
        "clipboard text never reaches the log: " + row.argsPreview());
  }

  @Test
  void what_xclip_puts_is_what_clipboard_read_returns_and_it_taints_the_trace() throws Exception {
    String text = "from xclip " + id();
    Process xclip = new ProcessBuilder("xclip", "-selection", "clipboard", "-i").start();
    xclip.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    xclip.getOutputStream().close();
    xclip.waitFor();
    // xclip serves the selection from a background process; wait until the X server says it
    // owns it (the JVM, the previous owner, hears of the loss asynchronously).
    for (int i = 0; i < 100 && !run("xclip", "-o", "-selection", "clipboard").equals(text); i++)
      Thread.sleep(20);
    Thread.sleep(100);
    String trace = id();
    assertEquals(
        "confirm",
        agent.preflight(trace, "clipboard.read", Json.object()).decision(),
        "reading the clipboard always asks");
    String token = ui.grant(new Grant.Params(
            trace, List.of(new Grant.Call("clipboard.read", Json.object())), null, null, 60, null))
        .confirmToken();
    ToolResult r = agent.execute(
        new Execute.Params(trace, id(), "clipboard.read", Json.object(), token, null));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertEquals(text, r.value().get("text").asText());
    assertEquals(
        List.of("the clipboard"),
        agent.preflight(trace, "files.ensure_dir", args("path", "x")).taint());
  }

  @Test
  void a_notification_reaches_the_daemon_with_its_title_and_body() throws Exception {
    String title = "Steward " + id().substring(0, 8);
    ToolResult r = TestService.exec(
        agent,
        "notify.send",
        args(
            "title",
            title,
            "body",
            "The body; $(id) stays text, <a href=\"https://x.example\">a link</a> & all",
            "urgency",
            "low"));
    assertTrue(r.ok(), String.valueOf(r.error()));
    assertTrue(r.value().get("delivered").asBoolean());
    run("dunstctl", "close-all");
    String history = "";
    for (int i = 0; i < 50 && !history.contains(title); i++) {
      Thread.sleep(50);
      history = run("dunstctl", "history");
    }
    JsonNode h = Json.parse(history);
    boolean found = false;
    for (JsonNode n : h.at("/data/0")) {
      if (n.at("/summary/data").asText().equals(title)) {
        // Sent escaped for a server that reads markup: it shows the characters, makes no link.
        assertEquals(
            "The body; $(id) stays text, &lt;a href=\"https://x.example\"&gt;a link&lt;/a&gt;"
                + " &amp; all",
            n.at("/body/data").asText());
        found = true;
      }
    }
    assertTrue(found, "the daemon's history has the notification: " + history);
  }

  @Test
  void without_a_display_the_clipboard_is_unavailable(@TempDir Path tmp) throws Exception {
    Path home = tmp.resolve("home");
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/policy.json"),
        "{\"paths\":[{\"root\":\"" + tmp + "\",\"access\":\"read_write\"}]}");
    try (ServiceProcess service =
            ServiceProcess.start(home, tmp, List.of("DISPLAY", "WAYLAND_DISPLAY"));
        StewardClient a = service.client(Role.AGENT);
        StewardClient u = service.client(Role.UI)) {
      String trace = id();
      String token = u.grant(new Grant.Params(
              trace,
              List.of(new Grant.Call("clipboard.read", Json.object())),
              null,
              null,
              60,
              null))
          .confirmToken();
      ToolResult r =
          a.execute(new Execute.Params(trace, id(), "clipboard.read", Json.object(), token, null));
      assertEquals(ToolErrorCodes.UNAVAILABLE, r.error().code());
      assertTrue(r.error().message().contains("no display"), r.error().message());
    }
  }
}
