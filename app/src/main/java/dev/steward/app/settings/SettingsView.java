package dev.steward.app.settings;

import dev.steward.app.agent.LocalServers;
import dev.steward.app.config.AppSettings;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.PasswordField;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.jspecify.annotations.Nullable;

/**
 * Settings: the model (server, picker, connection test), folders, hosts, apps and grants (the
 * service's policy), and the theme. Problems show beside the field they are about.
 */
public final class SettingsView extends ScrollPane {

  public SettingsView(SettingsViewModel model, Consumer<String> applyTheme, Runnable quit) {
    VBox content = new VBox(
        18,
        modelSection(model.model()),
        foldersSection(model.folders()),
        hostsSection(model.hosts()),
        fetchHeadersSection(model.fetchHeaders()),
        grantsSection(model.grants()),
        appsSection(model.apps()),
        mcpSection(model.mcp()),
        webSearchSection(model.webSearch()),
        new PackSectionsView(model),
        calendarSection(model.calendar()),
        mailSection(model.mail()),
        householdSection(model.household()),
        hotkeySection(model.hotkey(), quit),
        themeSection(model.theme(), applyTheme));
    content.setPadding(new Insets(16));
    content.getStyleClass().add("settings");
    setContent(content);
    setFitToWidth(true);
  }

  static VBox section(String title, Node... children) {
    Label heading = new Label(title);
    heading.getStyleClass().add("settings-heading");
    VBox box = new VBox(8, heading);
    box.getChildren().addAll(children);
    return box;
  }

  static Label error(String id, ReadOnlyStringProperty text) {
    Label l = new Label();
    l.setId(id);
    l.getStyleClass().add("settings-error");
    l.setWrapText(true);
    l.textProperty().bind(text);
    l.visibleProperty().bind(text.isNotEmpty());
    l.managedProperty().bind(l.visibleProperty());
    return l;
  }

  private static VBox modelSection(ModelSettings m) {
    ChoiceBox<String> kind = new ChoiceBox<>(
        FXCollections.observableArrayList(AppSettings.OLLAMA, AppSettings.OPENAI_COMPATIBLE));
    kind.setId("settings-provider");
    kind.setConverter(new javafx.util.StringConverter<>() {
      @Override
      public String toString(@Nullable String wire) {
        return AppSettings.OPENAI_COMPATIBLE.equals(wire) ? "OpenAI-compatible" : "Ollama";
      }

      @Override
      public String fromString(String label) {
        return label.startsWith("OpenAI") ? AppSettings.OPENAI_COMPATIBLE : AppSettings.OLLAMA;
      }
    });
    kind.valueProperty().bindBidirectional(m.providerProperty());
    TextField url = new TextField();
    url.setId("settings-url");
    url.textProperty().bindBidirectional(m.urlProperty());
    HBox.setHgrow(url, Priority.ALWAYS);
    Button test = new Button("Test connection");
    test.setId("settings-test");
    test.setOnAction(e -> m.testConnection());
    Button find = new Button("Find servers");
    find.setId("settings-find");
    find.setOnAction(e -> m.findServers());
    ComboBox<LocalServers.Found> found = new ComboBox<>(m.found());
    found.setId("settings-found");
    found.setPromptText("servers on this machine");
    found.setConverter(new javafx.util.StringConverter<>() {
      @Override
      public String toString(LocalServers.@Nullable Found f) {
        return f == null ? "" : f.label() + " — " + f.url();
      }

      @Override
      public LocalServers.@Nullable Found fromString(String text) {
        return null;
      }
    });
    found.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(m.found()));
    found.managedProperty().bind(found.visibleProperty());
    found.valueProperty().addListener((o, was, now) -> {
      if (now != null) m.use(now);
    });
    PasswordField key = new PasswordField();
    key.setId("settings-key");
    key.textProperty().bindBidirectional(m.newKeyProperty());
    key.promptTextProperty()
        .bind(javafx.beans.binding.Bindings.when(m.keySavedProperty())
            .then("a key is saved; type to replace it")
            .otherwise("only if the server asks for one"));
    HBox.setHgrow(key, Priority.ALWAYS);
    Button removeKey = new Button("Remove key");
    removeKey.setId("settings-remove-key");
    removeKey.visibleProperty().bind(m.keySavedProperty());
    removeKey.managedProperty().bind(removeKey.visibleProperty());
    removeKey.setOnAction(e -> m.removeKey());
    ComboBox<String> models = new ComboBox<>(m.models());
    models.setId("settings-model");
    models.setEditable(true);
    models.setPromptText("first suitable model");
    models.valueProperty().bindBidirectional(m.modelProperty());
    models.setCellFactory(list -> new javafx.scene.control.ListCell<>() {
      @Override
      protected void updateItem(String name, boolean empty) {
        super.updateItem(name, empty);
        setText(
            empty || name == null
                ? null
                : name
                    + switch (m.toolUse(name)) {
                      case CALLS_TOOLS -> "  — calls tools";
                      case NO_TOOLS -> "  — no tools";
                      case NOT_SAID -> "";
                    });
      }
    });
    Button save = new Button("Save");
    save.setId("settings-save-model");
    save.getStyleClass().add("accent");
    save.setOnAction(e -> m.save());
    Label status = new Label();
    status.setId("settings-model-status");
    status.setWrapText(true);
    status.textProperty().bind(m.statusProperty());
    HBox server = new HBox(8, new Label("Server"), kind, url, test);
    HBox look = new HBox(8, find, found);
    HBox secret = new HBox(8, new Label("Key"), key, removeKey);
    secret.visibleProperty().bind(m.providerProperty().isEqualTo(AppSettings.OPENAI_COMPATIBLE));
    secret.managedProperty().bind(secret.visibleProperty());
    HBox picker = new HBox(8, new Label("Model"), models, save);
    for (HBox row : List.of(server, look, secret, picker)) row.setAlignment(Pos.CENTER_LEFT);
    return section(
        "Model",
        server,
        error("settings-url-error", m.urlErrorProperty()),
        look,
        secret,
        picker,
        error("settings-model-warning", m.warningProperty()),
        status);
  }

  private static VBox foldersSection(FoldersSettings m) {
    ListView<PolicyDocument.PathRoot> list = listOf(
        m.folders(),
        r -> r.root() + (r.writable() ? "  (read and write)" : "  (read only)"),
        m::remove);
    list.setId("settings-folders");
    TextField folder = new TextField();
    folder.setId("settings-new-folder");
    folder.setPromptText("~/Notes");
    folder.textProperty().bindBidirectional(m.newFolderProperty());
    HBox.setHgrow(folder, Priority.ALWAYS);
    CheckBox write = new CheckBox("may write");
    write.selectedProperty().bindBidirectional(m.newFolderWritableProperty());
    Button add = new Button("Add folder");
    add.setId("settings-add-folder");
    add.setOnAction(e -> m.add());
    folder.setOnAction(e -> m.add());
    HBox row = new HBox(8, folder, write, add);
    row.setAlignment(Pos.CENTER_LEFT);
    return section(
        "Folders Steward may use", list, row, error("settings-folder-error", m.errorProperty()));
  }

  private static VBox hostsSection(HostsSettings m) {
    ListView<String> list = listOf(m.hosts(), h -> h, m::remove);
    list.setId("settings-hosts");
    TextField host = new TextField();
    host.setId("settings-new-host");
    host.setPromptText("en.wikipedia.org or *.example.org");
    host.textProperty().bindBidirectional(m.newHostProperty());
    HBox.setHgrow(host, Priority.ALWAYS);
    Button add = new Button("Add host");
    add.setId("settings-add-host");
    add.setOnAction(e -> m.add());
    host.setOnAction(e -> m.add());
    Label hint = new Label("Pages on these hosts open without asking; others ask first.");
    hint.getStyleClass().add("settings-hint");
    CheckBox keep =
        new CheckBox("Keep cookies and sign-ins between visits (turning this off deletes them)");
    keep.setId("settings-keep-profile");
    keep.setSelected(m.keepBrowserProfileProperty().get());
    m.keepBrowserProfileProperty().addListener((o, was, now) -> keep.setSelected(now));
    keep.setOnAction(e -> m.setKeepBrowserProfile(keep.isSelected()));
    return section(
        "Web hosts",
        hint,
        list,
        new HBox(8, host, add),
        keep,
        error("settings-host-error", m.errorProperty()));
  }

  private static VBox fetchHeadersSection(FetchHeadersSettings m) {
    ListView<FetchHeadersSettings.Entry> list =
        listOf(m.entries(), FetchHeadersSettings.Entry::label, m::remove);
    list.setId("settings-fetch-headers");
    list.setPrefHeight(80);
    TextField origin = new TextField();
    origin.setId("settings-fetch-header-origin");
    origin.setPromptText("https://api.example.org");
    origin.textProperty().bindBidirectional(m.originProperty());
    HBox.setHgrow(origin, Priority.ALWAYS);
    TextField name = new TextField();
    name.setId("settings-fetch-header-name");
    name.setPromptText("Authorization");
    name.setPrefColumnCount(12);
    name.textProperty().bindBidirectional(m.nameProperty());
    PasswordField value = new PasswordField();
    value.setId("settings-fetch-header-value");
    value.setPromptText("Bearer … (never shown again)");
    value.textProperty().bindBidirectional(m.valueProperty());
    HBox.setHgrow(value, Priority.ALWAYS);
    value.setOnAction(e -> m.add());
    Button add = new Button("Add header");
    add.setId("settings-fetch-header-add");
    add.setOnAction(e -> m.add());
    Label status = new Label();
    status.setId("settings-fetch-header-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    Label hint = new Label("Headers sent with every fetch to exactly this address (its scheme,"
        + " host and port) and nowhere else, not even after a redirect: an API token, for"
        + " example. The assistant sees their names, never their values.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    HBox row = new HBox(8, origin, name, value, add);
    row.setAlignment(Pos.CENTER_LEFT);
    return section(
        "Sign-ins for web addresses",
        hint,
        list,
        row,
        status,
        error("settings-fetch-header-error", m.errorProperty()));
  }

  private static VBox webSearchSection(WebSearchSettings m) {
    ChoiceBox<String> provider = new ChoiceBox<>();
    provider.setId("settings-search-provider");
    provider.getItems().addAll(WebSearchSettings.NONE, "searxng", "tavily", "brave");
    provider.setConverter(new javafx.util.StringConverter<>() {
      @Override
      public String toString(String p) {
        if (p == null) return "";
        if (p.equals(WebSearchSettings.NONE)) return "None";
        return p.equals("searxng") ? "My own SearXNG" : WebSearchSettings.named(p);
      }

      @Override
      public String fromString(String s) {
        return s;
      }
    });
    provider.valueProperty().bindBidirectional(m.providerProperty());
    TextField url = new TextField();
    url.setId("settings-search-url");
    url.setPromptText(
        "address: your SearXNG's (http://127.0.0.1:8888), or empty for the public API");
    url.textProperty().bindBidirectional(m.urlProperty());
    HBox.setHgrow(url, Priority.ALWAYS);
    PasswordField key = new PasswordField();
    key.setId("settings-search-key");
    key.setPromptText("API key (Tavily, Brave; kept as set when left empty)");
    key.textProperty().bindBidirectional(m.apiKeyProperty());
    Button save = new Button("Save");
    save.setId("settings-search-save");
    save.setOnAction(e -> m.save());
    Button test = new Button("Test");
    test.setId("settings-search-test");
    test.setOnAction(e -> m.test());
    test.disableProperty().bind(m.testingProperty());
    Label status = new Label();
    status.setId("settings-search-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    Label hint = new Label(
        "What the assistant searches for is sent to this engine; in a conversation that has read"
            + " something from outside, each search asks you first.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section(
        "Web search",
        hint,
        new HBox(8, provider, url),
        key,
        new HBox(8, save, test, status),
        error("settings-search-error", m.errorProperty()));
  }

  private static VBox calendarSection(CalendarSettings m) {
    TextField url = new TextField();
    url.setId("settings-calendar-url");
    url.setPromptText(
        "the calendar's CalDAV address, e.g. https://cloud.example.org/remote.php/dav/calendars/me/assistant/");
    url.textProperty().bindBidirectional(m.urlProperty());
    TextField user = new TextField();
    user.setId("settings-calendar-user");
    user.setPromptText("user name (kept as set when left empty)");
    user.textProperty().bindBidirectional(m.usernameProperty());
    PasswordField password = new PasswordField();
    password.setId("settings-calendar-password");
    password.setPromptText("app password (kept as set when left empty)");
    password.textProperty().bindBidirectional(m.passwordProperty());
    HBox.setHgrow(user, Priority.ALWAYS);
    HBox.setHgrow(password, Priority.ALWAYS);
    Button save = new Button("Save");
    save.setId("settings-calendar-save");
    save.setOnAction(e -> m.save());
    Button find = new Button("Find my calendars");
    find.setId("settings-calendar-find");
    find.setOnAction(e -> m.find());
    ComboBox<CalendarSettings.Found> found = new ComboBox<>(m.found());
    found.setId("settings-calendar-found");
    found.setPromptText("calendars found");
    found.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(m.found()));
    found.managedProperty().bind(found.visibleProperty());
    found.valueProperty().addListener((o, was, now) -> {
      if (now != null) m.choose(now);
    });
    Button test = new Button("Test connection");
    test.setId("settings-calendar-test");
    test.disableProperty().bind(m.testingProperty());
    test.setOnAction(e -> m.test());
    Label status = new Label();
    status.setId("settings-calendar-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    Label hint = new Label(
        "One calendar made for the assistant (not your whole account). When you are busy is"
            + " always open to it; titles of events you made yourself only after you approve;"
            + " every change asks first and can be undone.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section(
        "Calendar",
        hint,
        url,
        new HBox(8, user, password),
        new HBox(8, save, test, find, found, status),
        error("settings-calendar-error", m.errorProperty()));
  }

  private static VBox mailSection(MailSettings m) {
    TextField address = new TextField();
    address.setId("settings-mail-address");
    address.setPromptText("the assistant's own address, e.g. assistant@example.org");
    address.textProperty().bindBidirectional(m.addressProperty());
    HBox imap = serverRow(
        "IMAP",
        "settings-mail-imap",
        m.imapHostProperty(),
        m.imapPortProperty(),
        m.imapTlsProperty());
    HBox smtp = serverRow(
        "SMTP",
        "settings-mail-smtp",
        m.smtpHostProperty(),
        m.smtpPortProperty(),
        m.smtpTlsProperty());
    TextField user = new TextField();
    user.setId("settings-mail-user");
    user.setPromptText("user name (kept as set when left empty)");
    user.textProperty().bindBidirectional(m.usernameProperty());
    PasswordField password = new PasswordField();
    password.setId("settings-mail-password");
    password.setPromptText("password (kept as set when left empty)");
    password.textProperty().bindBidirectional(m.passwordProperty());
    HBox.setHgrow(user, Priority.ALWAYS);
    HBox.setHgrow(password, Priority.ALWAYS);
    CheckBox notify = new CheckBox("Show a notification when new mail arrives");
    notify.setId("settings-mail-notify");
    notify.selectedProperty().bindBidirectional(m.notifyNewMailProperty());
    Button save = new Button("Save");
    save.setId("settings-mail-save");
    save.setOnAction(e -> m.save());
    Button test = new Button("Test connection");
    test.setId("settings-mail-test");
    test.disableProperty().bind(m.testingProperty());
    test.setOnAction(e -> m.test());
    Label status = new Label();
    status.setId("settings-mail-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    Label hint = new Label(
        "A mailbox made for the assistant: forward it what it may read (or set a filter that"
            + " does). It never sees your own mailbox. Every mail it sends asks you first, showing"
            + " the recipients and the text exactly.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section(
        "Mail",
        hint,
        address,
        imap,
        smtp,
        new HBox(8, user, password),
        notify,
        new HBox(8, save, test, status),
        error("settings-mail-error", m.errorProperty()));
  }

  private static HBox serverRow(
      String name,
      String id,
      javafx.beans.property.StringProperty host,
      javafx.beans.property.StringProperty port,
      javafx.beans.property.BooleanProperty tls) {
    TextField h = new TextField();
    h.setId(id + "-host");
    h.setPromptText(name.toLowerCase(java.util.Locale.ROOT) + ".example.org");
    h.textProperty().bindBidirectional(host);
    HBox.setHgrow(h, Priority.ALWAYS);
    TextField p = new TextField();
    p.setId(id + "-port");
    p.setPrefColumnCount(5);
    p.textProperty().bindBidirectional(port);
    CheckBox t = new CheckBox("TLS");
    t.setId(id + "-tls");
    t.selectedProperty().bindBidirectional(tls);
    return new HBox(8, new Label(name), h, p, t);
  }

  private static VBox householdSection(HouseholdSettings m) {
    ToggleGroup where = new ToggleGroup();
    RadioButton local = new RadioButton("On this computer");
    local.setId("settings-household-local");
    RadioButton shared = new RadioButton("In a PostgreSQL database the household shares");
    shared.setId("settings-household-shared");
    local.setToggleGroup(where);
    shared.setToggleGroup(where);
    (m.sharedProperty().get() ? shared : local).setSelected(true);
    m.sharedProperty().addListener((o, was, now) -> (now ? shared : local).setSelected(true));
    where
        .selectedToggleProperty()
        .addListener((o, was, now) -> m.sharedProperty().set(now == shared));
    TextField url = new TextField();
    url.setId("settings-household-url");
    url.setPromptText("jdbc:postgresql://nas.local/household");
    url.textProperty().bindBidirectional(m.urlProperty());
    TextField user = new TextField();
    user.setId("settings-household-user");
    user.setPromptText("the household's database role");
    user.textProperty().bindBidirectional(m.usernameProperty());
    PasswordField password = new PasswordField();
    password.setId("settings-household-password");
    password.setPromptText("password (kept as set when left empty)");
    password.textProperty().bindBidirectional(m.passwordProperty());
    TextField owner = new TextField();
    owner.setId("settings-household-owner");
    owner.setPromptText("owner role, to set the database up (optional)");
    owner.textProperty().bindBidirectional(m.ownerUsernameProperty());
    PasswordField ownerPassword = new PasswordField();
    ownerPassword.setId("settings-household-owner-password");
    ownerPassword.setPromptText("owner's password");
    ownerPassword.textProperty().bindBidirectional(m.ownerPasswordProperty());
    VBox sharedFields =
        new VBox(6, url, new HBox(8, user, password), new HBox(8, owner, ownerPassword));
    sharedFields.visibleProperty().bind(m.sharedProperty());
    sharedFields.managedProperty().bind(sharedFields.visibleProperty());
    Button save = new Button("Save");
    save.setId("settings-household-save");
    save.setOnAction(e -> m.save());
    Label status = new Label();
    status.setId("settings-household-status");
    status.getStyleClass().add("settings-hint");
    status.textProperty().bind(m.statusProperty());
    Label hint = new Label(
        "Recipes, planned meals and grocery lists. Shared: each household signs in as its own role;"
            + " passwords go to config/secrets.json and are never shown again.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section(
        "Household data",
        hint,
        new HBox(12, local, shared),
        sharedFields,
        new HBox(8, save, status),
        error("settings-household-error", m.errorProperty()));
  }

  private static VBox grantsSection(GrantsSettings m) {
    ListView<PolicyDocument.StandingGrant> list =
        listOf(m.grants(), GrantsSettings::shown, m::revoke);
    list.setId("settings-grants");
    Label hint = new Label(
        "\"Always allow here\" answers: calls that match run without asking (never high-risk ones). Revoke to be asked again.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section("Grants", hint, list, error("settings-grant-error", m.errorProperty()));
  }

  private static VBox appsSection(AppsSettings m) {
    ListView<PolicyDocument.AppEntry> list =
        listOf(m.apps(), a -> a.id() + ": " + String.join(" ", a.command()), m::remove);
    list.setId("settings-apps");
    Label hint = new Label(
        "Apps the assistant may open (always with your approval). Import proposes entries from the installed apps.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    ListView<DesktopEntries.Proposal> proposals = listOf(
        m.proposals(), p -> p.name() + " — " + String.join(" ", p.entry().command()), m::add);
    proposals.setId("settings-app-proposals");
    proposals.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(m.proposals()));
    proposals.managedProperty().bind(proposals.visibleProperty());
    Button importApps = new Button("Import from installed apps");
    importApps.setId("settings-import-apps");
    importApps.setOnAction(e -> m.propose(
        DesktopEntries.defaultFolders(java.nio.file.Path.of(System.getProperty("user.home")))));
    return section(
        "Apps", hint, list, importApps, proposals, error("settings-app-error", m.errorProperty()));
  }

  private static VBox mcpSection(McpSettings m) {
    Label hint = new Label(
        "Tools of MCP servers you use in other apps, behind Steward's approvals and audit log."
            + " Paste a block from Claude Desktop, Cursor or VS Code, or add one by hand. A"
            + " server's tools reach the assistant once you accept them; a tool whose server later"
            + " changes what it says it does stops until you look again.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    javafx.scene.control.TextArea paste = new javafx.scene.control.TextArea();
    paste.setId("settings-mcp-paste");
    paste.setPromptText("{\"mcpServers\": {\"notes\": {\"command\": \"npx\", \"args\": [\"-y\","
        + " \"@modelcontextprotocol/server-filesystem\", \"~/Notes\"]}}}");
    paste.setPrefRowCount(3);
    paste.setWrapText(true);
    paste.textProperty().bindBidirectional(m.pastedProperty());
    Button addPasted = new Button("Add from JSON");
    addPasted.setId("settings-mcp-add-pasted");
    addPasted.setOnAction(e -> m.addPasted());
    TextField name = new TextField();
    name.setId("settings-mcp-name");
    name.setPromptText("name");
    name.setPrefColumnCount(8);
    name.textProperty().bindBidirectional(m.newNameProperty());
    TextField command = new TextField();
    command.setId("settings-mcp-command");
    command.setPromptText("command and arguments, or the server's https:// URL");
    command.textProperty().bindBidirectional(m.newCommandProperty());
    command.setOnAction(e -> m.addTyped());
    HBox.setHgrow(command, Priority.ALWAYS);
    Button add = new Button("Add server");
    add.setId("settings-mcp-add");
    add.setOnAction(e -> m.addTyped());
    VBox servers = new VBox(10);
    servers.setId("settings-mcp-servers");
    Runnable render = () -> {
      servers.getChildren().clear();
      for (dev.steward.protocol.method.Mcp.Server server : m.servers())
        servers.getChildren().add(McpServerCard.of(server, m));
    };
    m.servers()
        .addListener((javafx.collections.ListChangeListener<dev.steward.protocol.method.Mcp.Server>)
            c -> render.run());
    render.run();
    m.replacingProperty().addListener((o, was, now) -> {
      if (now != null) McpReplaceQuestion.ask(m, now, servers);
    });
    TextField signingIn = new TextField();
    signingIn.setId("settings-mcp-signing-in");
    signingIn.setEditable(false);
    signingIn.textProperty().bind(m.signingInProperty());
    signingIn.visibleProperty().bind(m.signingInProperty().isNotEmpty());
    signingIn.managedProperty().bind(signingIn.visibleProperty());
    return section(
        "MCP servers",
        hint,
        servers,
        signingIn,
        paste,
        addPasted,
        new HBox(8, name, command, add),
        error("settings-mcp-error", m.errorProperty()));
  }

  private static VBox hotkeySection(HotkeySettings m, Runnable quitApp) {
    Label status = new Label();
    status.setId("settings-hotkey-status");
    status.setWrapText(true);
    status.textProperty().bind(m.statusProperty());
    TextField keys = new TextField();
    keys.setId("settings-hotkey");
    keys.textProperty().bindBidirectional(m.keysProperty());
    Button save = new Button("Save");
    save.setOnAction(e -> m.save());
    Button quit = new Button("Quit Steward");
    quit.setId("settings-quit");
    quit.setOnAction(e -> quitApp.run());
    HBox row = new HBox(8, new Label("Keys"), keys, save);
    row.setAlignment(Pos.CENTER_LEFT);
    Label hint = new Label(
        "e.g. ctrl alt SPACE; a new combination takes effect at the next start. Quit (Ctrl+Q) ends the window and the service.");
    hint.getStyleClass().add("settings-hint");
    hint.setWrapText(true);
    return section(
        "Global hotkey",
        status,
        row,
        error("settings-hotkey-error", m.errorProperty()),
        hint,
        quit);
  }

  private static VBox themeSection(ThemeSettings m, Consumer<String> applyTheme) {
    ComboBox<String> theme = new ComboBox<>();
    theme.getItems().addAll("light", "dark");
    theme.valueProperty().bindBidirectional(m.themeProperty());
    theme.valueProperty().addListener((o, was, now) -> {
      if (now != null) {
        applyTheme.accept(now);
        m.save();
      }
    });
    return section(
        "Appearance",
        new HBox(8, new Label("Theme"), theme),
        error("settings-theme-error", m.errorProperty()));
  }

  /** A short list whose rows each carry a Remove (or Revoke) button. */
  private static <T> ListView<T> listOf(
      ObservableList<T> items, Function<T, String> text, Consumer<T> remove) {
    ListView<T> list = new ListView<>(items);
    list.setPrefHeight(120);
    list.setCellFactory(v -> new ListCell<>() {
      @Override
      protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        if (empty || item == null) {
          setGraphic(null);
          setText(null);
          return;
        }
        Label label = new Label(text.apply(item));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Button button = new Button(
            item instanceof PolicyDocument.StandingGrant
                ? "Revoke"
                : item instanceof DesktopEntries.Proposal ? "Add" : "Remove");
        button.getStyleClass().add("small");
        button.setOnAction(e -> remove.accept(item));
        HBox row = new HBox(8, label, spacer, button);
        row.setAlignment(Pos.CENTER_LEFT);
        setText(null);
        setGraphic(row);
      }
    });
    return list;
  }
}
