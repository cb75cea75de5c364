package dev.steward.app;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import dev.steward.app.agent.Agent;
import dev.steward.app.agent.ClientApprovals;
import dev.steward.app.agent.ClientServiceLink;
import dev.steward.app.agent.LocalServers;
import dev.steward.app.agent.ModelCatalog;
import dev.steward.app.agent.ModelServer;
import dev.steward.app.agent.ModelUnavailableException;
import dev.steward.app.agent.SwitchableModelSource;
import dev.steward.app.approval.FxApprover;
import dev.steward.app.audit.AuditPanel;
import dev.steward.app.audit.AuditViewModel;
import dev.steward.app.audit.ClientAuditSource;
import dev.steward.app.chat.ChatView;
import dev.steward.app.chat.ChatViewModel;
import dev.steward.app.config.AppSettings;
import dev.steward.app.config.ModelKey;
import dev.steward.app.config.SettingsStore;
import dev.steward.app.config.WindowPlacement;
import dev.steward.app.history.HistoryStore;
import dev.steward.app.history.HistoryView;
import dev.steward.app.history.HistoryViewModel;
import dev.steward.app.hotkey.GlobalHotkey;
import dev.steward.app.instance.SingleInstance;
import dev.steward.app.settings.ClientPolicySource;
import dev.steward.app.settings.ModelServers;
import dev.steward.app.settings.SettingsView;
import dev.steward.app.settings.SettingsViewModel;
import dev.steward.app.tray.TrayIcon;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.service.ServiceState;
import dev.steward.protocol.service.ServiceSupervisor;
import dev.steward.protocol.service.ServiceUnavailableException;
import dev.steward.protocol.util.DaemonThreads;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import org.jspecify.annotations.Nullable;

/**
 * The window. It is shown first; the service is found or started, and the model looked for, in
 * the background — so the window appears before anything slow happens, and opens even when no
 * model server exists.
 */
public final class StewardApp extends Application {

  private final AppConfig config;
  private final ChatViewModel chat = new ChatViewModel(Platform::runLater);
  private final java.util.concurrent.ExecutorService background =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          DaemonThreads.named("steward-background"));
  private final AuditViewModel audit =
      new AuditViewModel(background, Platform::runLater, java.time.Clock.systemUTC());
  private @Nullable SettingsViewModel settingsModel;
  private volatile @Nullable HistoryStore historyStore;
  private volatile @Nullable GlobalHotkey hotkey;
  private volatile @Nullable TrayIcon tray;
  private final java.util.concurrent.atomic.AtomicBoolean shutDown =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile String hotkeyName = "";
  private volatile @Nullable HistoryViewModel history;
  private volatile @Nullable ServiceSupervisor supervisor;
  private volatile @Nullable Agent agent;
  /** "Show in audit log" from the chat and the history: the audit tab, filtered (set once it exists). */
  private volatile java.util.function.Consumer<String> auditLink = text -> {};

  private @Nullable Stage stage;
  private static final double MIN_WIDTH = 800;
  private static final double MIN_HEIGHT = 600;
  /** This window's hold on its home; null when another window holds it and this start hands over. */
  private @Nullable SingleInstance instance;

  private volatile @Nullable SwitchableModelSource models;

  public StewardApp() {
    this(AppConfig.fromEnvironment());
  }

  public StewardApp(AppConfig config) {
    this.config = config;
  }

  /** The server the settings name, with the key from {@code config/secrets.json} if one is set. */
  static ModelServer modelServer(AppSettings settings, ModelKey key) {
    String secret;
    try {
      secret = key.readFor(settings.serverUrl()).orElse(null);
    } catch (java.io.IOException e) {
      System.err.println("steward: the model key could not be read: " + e.getMessage());
      secret = null;
    }
    return new ModelServer(
        AppSettings.OPENAI_COMPATIBLE.equals(settings.provider())
            ? ModelServer.Kind.OPENAI_COMPATIBLE
            : ModelServer.Kind.OLLAMA,
        settings.serverUrl(),
        settings.model(),
        secret,
        settings.contextTokens());
  }

  /** Before anything is opened: a second window on the same home hands over to the first. */
  @Override
  public void init() throws Exception {
    // Before the service, the history or the settings make any of them with default modes.
    dev.steward.app.config.OwnerOnly.folders(config.places());
    instance = SingleInstance.claim(config.places().run()).orElse(null);
  }

  @Override
  public void start(Stage primary) {
    SingleInstance held = instance;
    if (held == null) {
      System.err.println(
          "steward: a Steward window is already open on this home; brought it to the front");
      Platform.exit();
      return;
    }
    held.onShowRequest(() -> Platform.runLater(this::bringToFront));
    this.stage = primary;
    SettingsStore settingsStore = new SettingsStore(config.places(), config.env());
    SettingsStore.Loaded loaded = settingsStore.load();
    AppSettings settings = loaded.settings();
    if (loaded.problem() != null) chat.showError(loaded.problem());
    applyTheme(settings.theme());
    javafx.scene.layout.BorderPane chatPane =
        new javafx.scene.layout.BorderPane(new ChatView(chat));
    // Opening the history's H2 file takes a moment: the window does not wait for it.
    background.execute(() -> openHistory(chatPane));
    Tab chatTab = new Tab("Chat", chatPane);
    Tab auditTab =
        lazyTab("Audit log", () -> new AuditPanel(audit, AuditPanel.fileChooser(() -> stage)));
    auditTab.setId("audit-tab");
    // The chain is checked each time the panel is opened (and on demand with Verify).
    auditTab.selectedProperty().addListener((o, was, now) -> {
      if (now) {
        audit.verify();
        audit.refresh();
      }
    });
    ModelKey modelKey = new ModelKey(config.places().secretsFile());
    try {
      // The server the key was saved with: the file's, never one the environment names now.
      var own = settingsStore.own();
      if (own.isPresent()) modelKey.adopt(own.get().serverUrl());
    } catch (java.io.IOException e) {
      System.err.println("steward: the model key could not be read: " + e.getMessage());
    }
    SwitchableModelSource models =
        new SwitchableModelSource(modelServer(settings, modelKey), Duration.ofSeconds(5));
    this.models = models;
    LocalServers localServers = new LocalServers(LocalServers.USUAL);
    // A model saved in Settings is used from the next message; the banner follows at once.
    SettingsViewModel sm = new SettingsViewModel(
        background,
        Platform::runLater,
        settingsStore,
        modelKey,
        settings,
        new ModelServers() {
          @Override
          public List<ModelCatalog.Offered> models(ModelServer server) {
            return ModelCatalog.list(server);
          }

          @Override
          public List<LocalServers.Found> running() {
            return localServers.find();
          }
        },
        applied -> {
          models.use(modelServer(applied, modelKey));
          checkModel(models);
        });
    settingsModel = sm;
    chat.setModelChoices(new ChatViewModel.ModelChoices() {
      @Override
      public void list(
          java.util.function.BiConsumer<List<dev.steward.app.agent.ModelCatalog.Offered>, String>
              answer) {
        sm.model().savedServerModels(answer);
      }

      @Override
      public boolean use(String name) {
        return sm.model().useModel(name);
      }
    });
    // A tool held back because its MCP server changed it is said in the chat too, not only in
    // Settings, where the user may not look.
    sm.mcp().onHeldBack(chat::showNotice);
    sm.mcp().openWith(getHostServices()::showDocument);
    Tab settingsTab =
        lazyTab("Settings", () -> new SettingsView(sm, StewardApp::applyTheme, StewardApp::quit));
    settingsTab.selectedProperty().addListener((o, was, now) -> {
      if (now) sm.reload(); // "Always allow" may have added a grant
    });
    TabPane tabs = new TabPane(chatTab, auditTab, settingsTab);
    chat.setBannerActions(
        () -> checkModel(models), () -> tabs.getSelectionModel().select(settingsTab));
    tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
    tabs.setId("tabs");
    auditLink = text -> {
      tabs.getSelectionModel().select(auditTab);
      audit.showMatching(text); // after the tab's own refresh, so this filter is the one shown
    };
    chat.setAuditLink(text -> auditLink.accept(text));
    Scene scene = new Scene(tabs, 960, 720);
    scene
        .getStylesheets()
        .add(Objects.requireNonNull(getClass().getResource("steward.css")).toExternalForm());
    primary.setTitle("Steward");
    primary.setScene(scene);
    // Nothing is cut at this size (LayoutIT); smaller, controls would start to read "…".
    primary.setMinWidth(MIN_WIDTH);
    primary.setMinHeight(MIN_HEIGHT);
    place(primary);
    primary.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDING, e -> rememberPlacement());
    primary.show();
    System.err.println("steward: window shown " + (System.nanoTime() - Launcher.STARTED) / 1_000_000
        + " ms after main");

    GlobalHotkey keys = GlobalHotkey.register(
        settings.hotkey(),
        () -> Platform.runLater(this::toggleWindow),
        config.env(),
        System.getProperty("os.name", ""));
    hotkey = keys;
    hotkeyName = settings.hotkey();
    if (settingsModel != null) settingsModel.hotkey().setStatus(keys.status().message());
    if (keys.status().active()) keepRunningOnClose(primary);
    // A tray icon where the desktop has one; AWT starts off the window's path.
    DaemonThreads.start("steward-tray", () -> {
      Optional<TrayIcon> icon = TrayIcon.install(
          () -> Platform.runLater(this::bringToFront), () -> Platform.runLater(StewardApp::quit));
      icon.ifPresent(t -> Platform.runLater(() -> {
        tray = t;
        keepRunningOnClose(primary);
      }));
    });
    shortcuts(scene, tabs, chatTab, settingsTab);
    // Back in the chat, typing goes to the input, as in the peers; and the focus does not fall to
    // the conversation's first button, which would scroll the conversation to its top.
    tabs.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
      if (now == chatTab) focusInput(tabs, chatTab, scene);
    });
    // Killed (SIGTERM) rather than quit, the window still stops the service it started.
    Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "steward-shutdown"));
    DaemonThreads.start("steward-startup", () -> connect(settings));
  }

  private void connect(AppSettings settings) {
    ServiceSupervisor s = new ServiceSupervisor(
        config.places(), config.serviceCommand(), config.serviceEnvironment());
    supervisor = s;
    s.onState(chat::setServiceState);
    try {
      StewardClient ui = s.connect(Role.UI, "steward-app");
      ClientApprovals[] approvals = new ClientApprovals[1];
      ui.onNotification(n -> {
        if (Methods.TOOL_RESULTS.equals(n.method())) audit.callFinished();
        ClientApprovals ca = approvals[0];
        com.fasterxml.jackson.databind.JsonNode params = n.params();
        if (Methods.APPROVAL_REQUESTED.equals(n.method()) && ca != null && params != null)
          background.execute(() -> ca.requested(params));
        // At once, not after what waits in line: a withdrawn request shown later is not shown.
        if (Methods.APPROVAL_WITHDRAWN.equals(n.method()) && ca != null && params != null)
          ca.withdrawn(params);
        SettingsViewModel settingsNow = settingsModel;
        if (Methods.TOOLS_CHANGED.equals(n.method()) && settingsNow != null)
          javafx.application.Platform.runLater(settingsNow.mcp()::refresh);
      });
      audit.attach(new ClientAuditSource(ui));
      SettingsViewModel sm = settingsModel;
      if (sm != null) {
        sm.attach(new ClientPolicySource(ui));
        sm.attach(new dev.steward.app.settings.ClientMcpSource(ui));
        sm.attach(new dev.steward.app.settings.ClientSecretsSink(ui));
        sm.attach(new dev.steward.app.settings.ClientPackCalls(ui));
      }
      StewardClient agentClient = s.connect(Role.AGENT, "steward-agent");
      ClientServiceLink link = new ClientServiceLink(agentClient, ui);
      // One approver for the assistant and for other clients: it shows one dialog at a time.
      FxApprover approver = new FxApprover(() -> stage, link);
      approvals[0] = new ClientApprovals(approver, link, java.time.Clock.systemUTC());
      SwitchableModelSource models = java.util.Objects.requireNonNull(this.models, "made in start");
      Agent a = new Agent(
          models, link, approver, Duration.ofSeconds(settings.confirmTtlS()), settings.stepLimit());
      agent = a;
      Platform.runLater(() -> {
        chat.attach(a);
        HistoryViewModel h = history;
        if (h != null) h.setModelContext(a::restore);
      });
      exitAfterStartupIfAsked();
      findModel(models);
      watchMail(
          new dev.steward.app.agent.MailSummaries(
              models, new dev.steward.app.agent.ClientMailbox(ui)),
          new dev.steward.app.agent.MailNotices(
              new dev.steward.app.agent.ClientMailNotices(ui),
              () -> Boolean.TRUE.equals(ui.call(
                      Methods.POLICY_GET,
                      java.util.Map.of(),
                      dev.steward.protocol.policy.PolicyDocument.class)
                  .mail()
                  .notifyNewMail())));
    } catch (ServiceUnavailableException e) {
      chat.setServiceState(ServiceState.UNAVAILABLE);
      chat.showError("The automation service could not be started: " + e.getMessage());
    }
  }

  /**
   * Forwarded mail, watched from the window: every 30 seconds a look for new mail (a notification
   * when the user asked for one), every two minutes the model's summaries of what came in (seed
   * 000). A round with no mailbox, no model or a failing one changes nothing.
   */
  private void watchMail(
      dev.steward.app.agent.MailSummaries summaries, dev.steward.app.agent.MailNotices notices) {
    java.util.concurrent.ScheduledExecutorService timer =
        java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
            dev.steward.protocol.util.DaemonThreads.named("steward-mail"));
    timer.scheduleWithFixedDelay(
        () -> quietly(notices::look), 5, 30, java.util.concurrent.TimeUnit.SECONDS);
    timer.scheduleWithFixedDelay(
        () -> quietly(summaries::runOnce), 20, 120, java.util.concurrent.TimeUnit.SECONDS);
  }

  private static void quietly(Runnable round) {
    try {
      round.run();
    } catch (RuntimeException e) {
      java.util.logging.Logger.getLogger(StewardApp.class.getName())
          .log(java.util.logging.Level.FINE, "mail: a round failed", e);
    }
  }

  /**
   * {@code -Dsteward.exit-after-start-ms=N}: quit N ms after the service answered. The packaging
   * build uses it to record which classes a start loads (for the class-data-sharing archive), and
   * the start-up benchmark to measure a start.
   */
  private void exitAfterStartupIfAsked() {
    String ms = System.getProperty("steward.exit-after-start-ms");
    if (ms == null) return;
    DaemonThreads.start("steward-exit", () -> {
      try {
        Thread.sleep(Long.parseLong(ms));
      } catch (InterruptedException | NumberFormatException e) {
        // quit now
      }
      Platform.exit();
    });
  }

  @Override
  public void stop() {
    shutdown();
  }

  /**
   * A tab whose content is built the first time it is opened: the window shows the chat sooner
   * when the audit table and the settings form are not styled and laid out before anyone looks.
   */
  private static Tab lazyTab(String title, java.util.function.Supplier<javafx.scene.Node> content) {
    Tab tab = new Tab(title);
    tab.selectedProperty().addListener((o, was, now) -> {
      if (now && tab.getContent() == null) tab.setContent(content.get());
    });
    return tab;
  }

  private void openHistory(javafx.scene.layout.BorderPane chatPane) {
    try {
      HistoryStore store = HistoryStore.open(config.places().data());
      historyStore = store;
      HistoryViewModel h = new HistoryViewModel(store, chat, background, Platform::runLater);
      h.setAuditLink(text -> auditLink.accept(text));
      history = h;
      Platform.runLater(() -> {
        chatPane.setLeft(new HistoryView(h));
        Agent a = agent;
        if (a != null)
          h.setModelContext(a::restore); // the agent came first; otherwise connect() does this
      });
      h.load();
    } catch (java.io.IOException | java.sql.SQLException e) {
      chat.showError("The chat history cannot be kept (" + e.getMessage()
          + "); this conversation will not be saved.");
    }
  }

  /**
   * Where the window was last time, if that is still on a screen; else the default size, centred.
   */
  private void place(Stage primary) {
    Optional<WindowPlacement> last = WindowPlacement.load(config.places().config())
        .filter(
            p -> !javafx.stage.Screen.getScreensForRectangle(p.x(), p.y(), p.width(), p.height())
                .isEmpty());
    if (last.isEmpty()) {
      primary.centerOnScreen();
      return;
    }
    WindowPlacement p = last.get();
    primary.setX(p.x());
    primary.setY(p.y());
    primary.setWidth(Math.max(MIN_WIDTH, p.width()));
    primary.setHeight(Math.max(MIN_HEIGHT, p.height()));
    primary.setMaximized(p.maximized());
  }

  private void rememberPlacement() {
    Stage s = stage;
    if (s == null || s.isIconified() || s.getWidth() <= 0) return;
    new WindowPlacement(s.getX(), s.getY(), s.getWidth(), s.getHeight(), s.isMaximized())
        .save(config.places().config());
  }

  /** The keys people expect (Ctrl+/ lists them in the chat). */
  static final String SHORTCUTS = String.join(
      "\n",
      "Keyboard shortcuts:",
      "  Enter            send; Shift+Enter: a new line",
      "  Up               edit your last message (in an empty input)",
      "  Esc              stop the reply",
      "  Ctrl+N           new conversation",
      "  Ctrl+L           go to the message input",
      "  Ctrl+F           find in this conversation (Enter: next, Esc: close)",
      "  Ctrl+,           settings",
      "  Ctrl+/           this list",
      "  Ctrl+Q           quit Steward",
      "  In a dialog: Enter approves (Ctrl+Enter when high risk), Esc denies");

  private void shortcuts(Scene scene, TabPane tabs, Tab chatTab, Tab settingsTab) {
    java.util.Map<javafx.scene.input.KeyCombination, Runnable> keys = scene.getAccelerators();
    keys.put(shortcut(javafx.scene.input.KeyCode.Q), StewardApp::quit);
    keys.put(
        shortcut(javafx.scene.input.KeyCode.COMMA),
        () -> tabs.getSelectionModel().select(settingsTab));
    keys.put(shortcut(javafx.scene.input.KeyCode.L), () -> focusInput(tabs, chatTab, scene));
    keys.put(shortcut(javafx.scene.input.KeyCode.F), () -> {
      tabs.getSelectionModel().select(chatTab);
      chat.openFind();
    });
    keys.put(shortcut(javafx.scene.input.KeyCode.SLASH), () -> {
      tabs.getSelectionModel().select(chatTab);
      chat.showNotice(SHORTCUTS);
    });
    keys.put(shortcut(javafx.scene.input.KeyCode.N), () -> {
      HistoryViewModel h = history;
      if (h != null && !chat.busyProperty().get()) h.newConversation();
      focusInput(tabs, chatTab, scene);
    });
    keys.put(
        new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.ESCAPE), chat::stop);
  }

  private static javafx.scene.input.KeyCombination shortcut(javafx.scene.input.KeyCode key) {
    return new javafx.scene.input.KeyCodeCombination(
        key, javafx.scene.input.KeyCombination.SHORTCUT_DOWN);
  }

  private static void focusInput(TabPane tabs, Tab chatTab, Scene scene) {
    tabs.getSelectionModel().select(chatTab);
    javafx.scene.Node input = scene.lookup("#input");
    if (input != null) input.requestFocus();
  }

  /** Looks for the model now (the server may have started since), off the UI thread. */
  private void checkModel(SwitchableModelSource models) {
    background.execute(() -> findModel(models));
  }

  private void findModel(SwitchableModelSource models) {
    try {
      chat.modelFound(models.model().name());
    } catch (ModelUnavailableException e) {
      chat.showBanner(e.getMessage());
    }
  }

  /**
   * With a way back (the hotkey, the tray icon), closing the window keeps Steward running in the
   * background; Quit ends it.
   */
  private void keepRunningOnClose(Stage primary) {
    Platform.setImplicitExit(false);
    primary.setOnCloseRequest(e -> {
      e.consume();
      tellKeepsRunningOnce();
      primary.hide();
    });
  }

  /** How the window comes back, in words: the hotkey, the tray icon, or both. */
  private String waysBack() {
    GlobalHotkey k = hotkey;
    String keys = k != null && k.status().active() ? "its hotkey (" + hotkeyName + ")" : "";
    String icon = tray != null ? "its icon in the tray" : "";
    if (keys.isEmpty()) return icon;
    return icon.isEmpty() ? keys : keys + " or " + icon;
  }

  /**
   * The first time the window is closed to the background, it says so: closing an app's window
   * usually ends it. Once told, the user is not told again (a marker in {@code config/}).
   */
  private void tellKeepsRunningOnce() {
    java.nio.file.Path told = config.places().config().resolve("told-keeps-running");
    if (java.nio.file.Files.exists(told)) return;
    javafx.scene.control.Alert note = new javafx.scene.control.Alert(
        javafx.scene.control.Alert.AlertType.INFORMATION,
        "Steward keeps running in the background, so " + waysBack()
            + " can bring this window back, as does starting Steward again. To end it, use Quit"
            + " (Ctrl+Q) or Settings → Quit Steward.");
    note.setHeaderText("Steward keeps running");
    note.initOwner(stage);
    note.showAndWait();
    try {
      java.nio.file.Files.writeString(told, "");
    } catch (java.io.IOException e) {
      // told again next time; nothing else depends on it
    }
  }

  /** A second start asked for the window: shown, restored and in front. */
  void bringToFront() {
    Stage s = stage;
    if (s == null) return;
    s.show();
    s.setIconified(false);
    s.toFront();
    s.requestFocus();
  }

  /** The hotkey: a hidden window comes back, in front and focused; a shown one hides. */
  void toggleWindow() {
    Stage s = stage;
    if (s == null) return;
    if (s.isShowing()) {
      s.hide();
    } else {
      s.show();
      s.setIconified(false);
      s.toFront();
      s.requestFocus();
    }
  }

  /** Quit: ends the window and the service it started. */
  public static void quit() {
    Platform.exit();
  }

  private void shutdown() {
    // From stop() and again from the shutdown hook: the second time must not undo what a new
    // launch has done meanwhile (its single-instance socket).
    if (!shutDown.compareAndSet(false, true)) return;
    Stage shown = stage;
    if (shown != null && shown.isShowing()) rememberPlacement();
    SingleInstance held = instance;
    if (held != null) held.close();
    GlobalHotkey k = hotkey;
    if (k != null) k.close();
    TrayIcon t = tray;
    if (t != null) t.remove(); // else AWT would keep the process alive
    Agent a = agent;
    if (a != null) a.close();
    ServiceSupervisor s = supervisor;
    if (s != null) s.close();
    HistoryStore h = historyStore;
    if (h != null) h.close();
  }

  static void applyTheme(String theme) {
    Application.setUserAgentStylesheet(
        "dark".equals(theme)
            ? new PrimerDark().getUserAgentStylesheet()
            : new PrimerLight().getUserAgentStylesheet());
  }

  /** For tests: the history's view model. */
  public @Nullable HistoryViewModel history() {
    return history;
  }

  /** For tests: the tray icon, where the desktop has a tray. */
  public @Nullable TrayIcon tray() {
    return tray;
  }

  /** For tests: the settings' view model. */
  public @Nullable SettingsViewModel settings() {
    return settingsModel;
  }

  /** For tests: the audit panel's view model. */
  public AuditViewModel audit() {
    return audit;
  }

  /** For tests: the chat's view model. */
  public ChatViewModel chat() {
    return chat;
  }

  /** For tests: the supervisor, once the startup thread made it. */
  public @Nullable ServiceSupervisor supervisor() {
    return supervisor;
  }
}
