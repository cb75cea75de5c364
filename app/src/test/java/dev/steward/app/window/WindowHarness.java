package dev.steward.app.window;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.app.AppConfig;
import dev.steward.app.StewardApp;
import dev.steward.app.chat.CallCard;
import dev.steward.app.chat.ChatEntry;
import dev.steward.app.chat.MessageEntry;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Methods;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real window on a headless stage (Monocle), started the way {@code ./steward} starts it: it
 * finds no service, so it starts one with {@code ./steward service} in a temporary Steward home
 * whose user home is a temporary folder too (so {@code ~/Steward} is a test folder).
 */
final class WindowHarness implements AutoCloseable {

  final Path base;
  final Path home;
  final Path userHome;
  final Path workspace;
  final StewardApp app;
  final FxRobot robot = new FxRobot();

  private WindowHarness(Path base, StewardApp app) {
    this.base = base;
    this.home = base.resolve("steward-home");
    this.userHome = base.resolve("user");
    this.workspace = userHome.resolve("Steward");
    this.app = app;
  }

  /** Starts the window with these settings ({@code ollama_url} etc.) in a fresh home. */
  static WindowHarness start(ObjectNode settings) throws Exception {
    return start(Files.createTempDirectory("steward-window-"), settings);
  }

  /** Starts the window on an existing base (a second run over the same home). */
  static WindowHarness start(Path base, ObjectNode settings) throws Exception {
    return start(base, settings, Map.of());
  }

  /** With the app seeing {@code env} (e.g. DISPLAY, for the global hotkey). */
  static WindowHarness start(Path base, ObjectNode settings, Map<String, String> env)
      throws Exception {
    Path home = base.resolve("steward-home");
    Path userHome = base.resolve("user");
    Files.createDirectories(userHome.resolve("Steward"));
    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config/settings.json"), settings.toString());
    AppConfig config = new AppConfig(
        StewardPlaces.under(home, userHome),
        List.of(repo().resolve("steward").toString(), "service"),
        Map.of(
            "STEWARD_HOME",
            home.toString(),
            "STEWARD_NO_BUILD",
            "1",
            "JAVA_TOOL_OPTIONS",
            "-Dsteward.warmup.rounds=0 -Duser.home=" + userHome),
        env);
    FxToolkit.registerPrimaryStage();
    StewardApp app = (StewardApp) FxToolkit.setupApplication(() -> new StewardApp(config));
    WindowHarness h = new WindowHarness(base, app);
    h.waitFor(Duration.ofSeconds(90), () -> app.chat().attached());
    return h;
  }

  static ObjectNode settings(String ollamaUrl) {
    ObjectNode s = Json.object();
    s.put("ollama_url", ollamaUrl);
    return s;
  }

  static Path repo() {
    String env = System.getenv("STEWARD_REPO");
    Path cwd = Path.of("").toAbsolutePath();
    Path repo = env != null
        ? Path.of(env)
        : Files.isExecutable(cwd.resolve("steward")) ? cwd : cwd.getParent();
    if (!Files.isExecutable(repo.resolve("steward")))
      throw new IllegalStateException("no ./steward launcher in " + repo);
    return repo;
  }

  /** Types into the input box with the robot and presses Enter. */
  void type(String text) {
    robot.clickOn("#input");
    robot.interact(() -> app.chat().inputProperty().set(text));
    robot.type(javafx.scene.input.KeyCode.ENTER);
  }

  /**
   * Waits until {@code condition} holds. It is checked on the JavaFX thread: the window's lists and
   * properties change there, and reading them from the test's thread can catch them mid-change.
   */
  void waitFor(Duration timeout, Callable<Boolean> condition) throws Exception {
    Callable<Boolean> onFx = () -> WaitForAsyncUtils.asyncFx(condition).get(10, TimeUnit.SECONDS);
    try {
      WaitForAsyncUtils.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS, onFx);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(
          "timed out after " + timeout + "; the conversation:\n" + transcript(), e);
    }
  }

  void waitFor(Callable<Boolean> condition) throws Exception {
    waitFor(Duration.ofSeconds(30), condition);
  }

  List<CallCard> cards() {
    return entries().stream()
        .filter(e -> e instanceof CallCard)
        .map(e -> (CallCard) e)
        .toList();
  }

  List<MessageEntry> messages(MessageEntry.Kind kind) {
    return entries().stream()
        .filter(e -> e instanceof MessageEntry m && m.kind() == kind)
        .map(e -> (MessageEntry) e)
        .toList();
  }

  private List<ChatEntry> entries() {
    return List.copyOf(app.chat().entries());
  }

  /**
   * What the window shows, for a failure's message. Read on the FX thread: the chat and the audit
   * panel change there while a turn runs.
   */
  String transcript() {
    if (javafx.application.Platform.isFxApplicationThread()) return transcriptNow();
    try {
      return WaitForAsyncUtils.asyncFx(this::transcriptNow).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      return "(the transcript could not be read: " + e + ")";
    }
  }

  private String transcriptNow() {
    StringBuilder s = new StringBuilder();
    for (ChatEntry e : entries()) {
      if (e instanceof MessageEntry m)
        s.append(m.kind()).append(": ").append(m.text()).append('\n');
      if (e instanceof CallCard c)
        s.append("CARD ")
            .append(c.tool())
            .append(" ")
            .append(c.state())
            .append(" ")
            .append(c.detail())
            .append('\n');
    }
    s.append("AUDIT STATUS: ").append(app.audit().statusProperty().get()).append('\n');
    s.append("AUDIT ROWS: ")
        .append(app.audit().rows().stream()
            .map(r -> r.auditId() + ":" + r.kind() + ":" + r.tool() + ":" + r.decision())
            .toList())
        .append('\n');
    robot
        .lookup(".approval-problem")
        .queryAll()
        .forEach(n -> s.append("DIALOG PROBLEM: ")
            .append(((javafx.scene.control.Label) n).getText())
            .append('\n'));
    Path log = home.resolve("run/service.log");
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      s.append("SERVICE LOG (last 40 lines):\n")
          .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())))
          .append('\n');
    } catch (IOException e) {
      s.append("SERVICE LOG: none at ").append(log).append('\n');
    }
    return s.toString();
  }

  /** Clicks a button of the dialog once the robot can see it (a new window takes a pulse or two to place). */
  void click(String query) throws Exception {
    waitFor(() -> robot
        .lookup(query)
        .match(org.testfx.util.NodeQueryUtils.isVisible())
        .tryQuery()
        .isPresent());
    robot.clickOn(query);
  }

  /** The dialog is up and has the window's own preview of its arguments (Approve armed and enabled, or a problem shown). */
  void waitForDialog() throws Exception {
    waitFor(() -> robot.lookup(".approval-args").tryQuery().isPresent()
        && robot
            .lookup("#approve")
            .match(org.testfx.util.NodeQueryUtils.isVisible())
            .tryQuery()
            .isPresent()
        && (!robot.lookup("#approve").queryAs(javafx.scene.control.Button.class).isDisabled()
            || robot
                .lookup(".approval-problem")
                .queryAllAs(javafx.scene.control.Label.class)
                .stream()
                .anyMatch(l -> l.isVisible() && !l.getText().startsWith("Checking"))));
  }

  /** The turn is over when the Stop button is disabled again. */
  void waitForTurnEnd() throws Exception {
    waitFor(() -> !app.chat().busyProperty().get());
  }

  StewardClient uiClient() throws IOException {
    String info = Files.readString(home.resolve("run/service.json"));
    int port = Json.parse(info).get("port").asInt();
    String secret = Files.readString(home.resolve("config/ui.secret"), StandardCharsets.UTF_8)
        .strip();
    return StewardClient.connect(Endpoint.loopback(port, secret));
  }

  List<Audit.Row> auditRows(String tool) throws IOException {
    try (StewardClient ui = uiClient()) {
      return ui.call(
              Methods.AUDIT_QUERY,
              new Audit.QueryParams(tool, null, null, null, null, null, null, 100, null),
              Audit.QueryResult.class)
          .rows();
    }
  }

  /** Saves the main window as a PNG under target/screenshots (for the README). */
  void screenshot(String name) throws Exception {
    screenshot(name, 0);
  }

  /**
   * Saves the window with this index (0 is the main window, 1 an open dialog) as it is, and again
   * in the dark theme ({@code <name>-dark.png}), for the README.
   */
  void screenshot(String name, int window) throws Exception {
    String dir = System.getProperty("steward.screenshots");
    if (dir == null) return;
    Files.createDirectories(Path.of(dir));
    snapshot(Path.of(dir, name + ".png"), window);
    String[] before = new String[1];
    robot.interact(() -> {
      before[0] = javafx.application.Application.getUserAgentStylesheet();
      javafx.application.Application.setUserAgentStylesheet(
          new atlantafx.base.theme.PrimerDark().getUserAgentStylesheet());
    });
    WaitForAsyncUtils.waitForFxEvents();
    snapshot(Path.of(dir, name + "-dark.png"), window);
    robot.interact(() -> javafx.application.Application.setUserAgentStylesheet(before[0]));
    WaitForAsyncUtils.waitForFxEvents();
  }

  private void snapshot(Path file, int window) throws Exception {
    javafx.scene.image.WritableImage[] image = new javafx.scene.image.WritableImage[1];
    robot.interact(
        () -> image[0] = robot.listTargetWindows().get(window).getScene().snapshot(null));
    int w = (int) image[0].getWidth();
    int h = (int) image[0].getHeight();
    java.awt.image.BufferedImage png =
        new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_INT_ARGB);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) png.setRGB(x, y, image[0].getPixelReader().getArgb(x, y));
    }
    javax.imageio.ImageIO.write(png, "png", file.toFile());
  }

  /** Quits the app (which stops the service it started) and keeps the files. */
  void quit() throws Exception {
    FxToolkit.cleanupApplication(app);
    FxToolkit.cleanupStages();
  }

  @Override
  public void close() throws Exception {
    quit();
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
