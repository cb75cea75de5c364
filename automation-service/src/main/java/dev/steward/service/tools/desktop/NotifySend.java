package dev.steward.service.tools.desktop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code notify.send}: a desktop notification. Linux: the freedesktop Notifications service on the
 * session bus, through {@code notify-send} (which prints the id the daemon assigned: delivered).
 * macOS: {@code osascript}; Windows: PowerShell. Title and body always travel as separate
 * arguments or environment values, never spliced into a script. No daemon: {@code UNAVAILABLE}.
 */
public final class NotifySend extends BaseTool {

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(NotifySend.class, "notify.send.json");

  private final String os;

  public NotifySend() {
    this(System.getProperty("os.name", ""));
  }

  NotifySend(String os) {
    super(DEFINITION);
    this.os = os.toLowerCase(Locale.ROOT);
  }

  @Override
  public Duration timeLimit() {
    return Duration.ofSeconds(15);
  }

  /** The command for this platform and the environment values it reads. */
  record Command(List<String> argv, Map<String, String> env) {}

  Command command(String title, String body, String urgency) {
    if (os.contains("mac")) {
      return new Command(
          List.of(
              "osascript",
              "-e",
              "on run argv",
              "-e",
              "display notification (item 2 of argv) with title (item 1 of argv)",
              "-e",
              "end run",
              title,
              body),
          Map.of());
    }
    if (os.contains("win")) {
      String script =
          "[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null;"
              + "$t = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02);"
              + "$x = $t.GetElementsByTagName('text'); $x.Item(0).AppendChild($t.CreateTextNode($env:STEWARD_TITLE)) > $null;"
              + "$x.Item(1).AppendChild($t.CreateTextNode($env:STEWARD_BODY)) > $null;"
              + "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier('Steward').Show([Windows.UI.Notifications.ToastNotification]::new($t))";
      return new Command(
          List.of("powershell", "-NoProfile", "-NonInteractive", "-Command", script),
          Map.of("STEWARD_TITLE", title, "STEWARD_BODY", body));
    }
    return new Command(
        List.of(
            // The system's, never one found on the PATH: a folder there that a sandboxed MCP
            // server can write (~/.local/bin, made after the sandbox was set up) would run its
            // program here, outside the sandbox.
            "/usr/bin/notify-send",
            "--print-id",
            "--app-name=Steward",
            "--urgency=" + urgency,
            "--",
            title,
            markupEscaped(body)),
        Map.of());
  }

  /**
   * The body as plain text to a notification server that reads markup in it (the desktop
   * notification spec's body-markup: links, images): a body cannot make a link the user clicks.
   */
  static String markupEscaped(String body) {
    return body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * A notification that names an address is a way out: desktops make it a link, and one click by
   * the user sends what the address carries (and it reads as Steward's own word). After untrusted
   * content, such a notification is clicked for first.
   */
  @Override
  public boolean sends(JsonNode args) {
    return ADDRESS.matcher(args.path("title").asText("")).find()
        || ADDRESS.matcher(args.path("body").asText("")).find();
  }

  /**
   * What a desktop may make into a link (GNOME Shell's finder and more): a scheme's address, an
   * {@code http:} or {@code mailto:} without slashes, a {@code www.} name, a bare name and path
   * ({@code evil.example/x}), or a mail address.
   */
  private static final java.util.regex.Pattern ADDRESS = java.util.regex.Pattern.compile(
      "(?i)\\b[a-z][a-z0-9+.-]*:/|\\bhttps?:|\\bmailto:|\\bwww\\d{0,3}\\."
          + "|[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.\\p{L}{2,}/"
          + "|[^\\s@]+@[\\p{L}\\p{N}-]+\\.[\\p{L}\\p{N}.-]+");

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    Command cmd = command(
        args.path("title").asText(),
        args.path("body").asText(""),
        args.path("urgency").asText("normal"));
    ProcessBuilder pb = new ProcessBuilder(cmd.argv()).redirectErrorStream(true);
    pb.environment().putAll(cmd.env());
    String output;
    int exit;
    try {
      Process p = pb.start();
      p.getOutputStream().close();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new ToolFailure(
            ToolErrorCodes.TIMEOUT, "the notification service did not answer within 10 s");
      }
      output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      exit = p.exitValue();
    } catch (IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "no way to show notifications here (" + cmd.argv().get(0) + " is missing)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
    }
    if (exit != 0) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "no notification service answered"
              + (output.isEmpty()
                  ? ""
                  : ": " + (output.length() > 300 ? output.substring(0, 300) : output)));
    }
    ObjectNode result = Json.object();
    result.put("delivered", true);
    return result;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "notification shown";
  }
}
