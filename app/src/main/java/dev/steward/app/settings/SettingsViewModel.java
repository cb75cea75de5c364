package dev.steward.app.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.steward.app.config.AppSettings;
import dev.steward.app.config.ModelKey;
import dev.steward.app.config.SettingsStore;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.PackSettings;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * The settings screen's logic, one view model a section. Folders, hosts, grants and apps are the
 * service's policy, shared through one {@link PolicyEditor}; the model, the hotkey and the theme
 * live in {@code config/settings.json}, each section saving only its own values.
 */
public final class SettingsViewModel {

  private final PolicyEditor policy;
  private final ModelSettings model;
  private final FoldersSettings folders;
  private final HostsSettings hosts;
  private final GrantsSettings grants;
  private final AppsSettings apps;
  private final McpSettings mcp;
  private final SecretsWriter secrets;
  private final HouseholdSettings household;
  private final WebSearchSettings webSearch;
  private final FetchHeadersSettings fetchHeaders;
  private final ObservableList<PackSection> packSections = FXCollections.observableArrayList();
  private final ReadOnlyStringWrapper packSectionsError = new ReadOnlyStringWrapper("");
  private final Executor background;
  private final Executor ui;
  private @Nullable PackCalls packCalls;
  private final CalendarSettings calendar;
  private final MailSettings mail;
  private final HotkeySettings hotkey;
  private final ThemeSettings theme;

  /**
   * @param initial the settings in force (already read from {@code store} at start)
   * @param modelServers asked for a server's models and the servers running here
   */
  public SettingsViewModel(
      Executor background,
      Executor ui,
      SettingsStore store,
      ModelKey modelKey,
      AppSettings initial,
      ModelServers modelServers) {
    this(background, ui, store, modelKey, initial, modelServers, applied -> {});
  }

  /** @param modelApplied told the model settings in effect after each save of them */
  public SettingsViewModel(
      Executor background,
      Executor ui,
      SettingsStore store,
      ModelKey modelKey,
      AppSettings initial,
      ModelServers modelServers,
      java.util.function.Consumer<AppSettings> modelApplied) {
    this.background = background;
    this.ui = ui;
    ReadOnlyStringWrapper policyError = new ReadOnlyStringWrapper("");
    this.policy = new PolicyEditor(background, ui, policyError);
    this.model =
        new ModelSettings(background, ui, store, modelKey, initial, modelServers, modelApplied);
    this.folders = new FoldersSettings(policy);
    this.hosts = new HostsSettings(policy);
    this.grants = new GrantsSettings(policy, policyError);
    this.apps = new AppsSettings(policy, background, ui);
    this.mcp = new McpSettings(policy, background, ui);
    this.secrets = new SecretsWriter(background, ui);
    this.household = new HouseholdSettings(policy, secrets);
    this.webSearch = new WebSearchSettings(policy, secrets, background, ui);
    this.fetchHeaders = new FetchHeadersSettings(background, ui);
    this.calendar = new CalendarSettings(policy, secrets, background, ui);
    this.mail = new MailSettings(policy, secrets, background, ui);
    this.hotkey = new HotkeySettings(ui, store, initial);
    this.theme = new ThemeSettings(store, initial);
  }

  /** Connects to the service's policy and shows it. */
  public void attach(PolicySource source) {
    policy.attach(source);
  }

  /** Connects to the service's MCP servers and shows them. */
  public void attach(McpSource source) {
    mcp.attach(source);
  }

  /** Connects to the service's {@code secrets.set}. */
  public void attach(SecretsSink sink) {
    secrets.attach(sink);
  }

  /** Connects to the packs' own methods (a calendar's or a mailbox's "Test connection"). */
  public void attach(PackCalls calls) {
    calendar.attach(calls);
    mail.attach(calls);
    webSearch.attach(calls);
    fetchHeaders.attach(calls);
    packCalls = calls;
    readPackSections();
  }

  /** Reads the policy again (a grant may have been added from the dialog). */
  public void reload() {
    policy.reload();
    fetchHeaders.refresh();
    if (packSections.isEmpty()) readPackSections();
  }

  /** Asks the service for the packs' sections; they are built once, on the UI thread. */
  private void readPackSections() {
    PackCalls calls = packCalls;
    if (calls == null) return;
    background.execute(() -> {
      try {
        PackSettings.Result declared = Json.mapper()
            .treeToValue(
                calls.call(Methods.PACKS_SETTINGS, Json.object()), PackSettings.Result.class);
        ui.execute(() -> {
          packSectionsError.set("");
          if (!packSections.isEmpty()) return;
          packSections.setAll(declared.sections().stream()
              .map(s -> new PackSection(s, policy, secrets))
              .toList());
        });
      } catch (RuntimeException | JsonProcessingException e) {
        ui.execute(() ->
            packSectionsError.set("The tool packs' settings could not be read: " + e.getMessage()));
      }
    });
  }

  public ModelSettings model() {
    return model;
  }

  public FoldersSettings folders() {
    return folders;
  }

  public HostsSettings hosts() {
    return hosts;
  }

  public GrantsSettings grants() {
    return grants;
  }

  public AppsSettings apps() {
    return apps;
  }

  public McpSettings mcp() {
    return mcp;
  }

  /** The sections the tool packs declare ({@code packs.settings}), once the service has answered. */
  public ObservableList<PackSection> packSections() {
    return packSections;
  }

  /** Why the packs' sections are missing (the service did not describe them), or empty. */
  public ReadOnlyStringProperty packSectionsError() {
    return packSectionsError.getReadOnlyProperty();
  }

  /** The declared section of {@code pack}, if the service has described one. */
  public java.util.Optional<PackSection> packSection(String pack) {
    return packSections.stream()
        .filter(s -> s.declaration().pack().equals(pack))
        .findFirst();
  }

  public WebSearchSettings webSearch() {
    return webSearch;
  }

  public FetchHeadersSettings fetchHeaders() {
    return fetchHeaders;
  }

  public CalendarSettings calendar() {
    return calendar;
  }

  public MailSettings mail() {
    return mail;
  }

  public HouseholdSettings household() {
    return household;
  }

  public HotkeySettings hotkey() {
    return hotkey;
  }

  public ThemeSettings theme() {
    return theme;
  }
}
