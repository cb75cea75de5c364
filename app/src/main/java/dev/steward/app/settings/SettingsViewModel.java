package dev.steward.app.settings;

import dev.steward.app.config.AppSettings;
import dev.steward.app.config.SettingsStore;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;

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
  private final HotkeySettings hotkey;
  private final ThemeSettings theme;

  /**
   * @param initial the settings in force (already read from {@code store} at start)
   * @param modelCatalog the models the server at an address has
   */
  public SettingsViewModel(
      Executor background,
      Executor ui,
      SettingsStore store,
      AppSettings initial,
      Function<String, List<OfferedModel>> modelCatalog) {
    this(background, ui, store, initial, modelCatalog, applied -> {});
  }

  /** @param modelApplied told the model settings in effect after each save of them */
  public SettingsViewModel(
      Executor background,
      Executor ui,
      SettingsStore store,
      AppSettings initial,
      Function<String, List<OfferedModel>> modelCatalog,
      java.util.function.Consumer<AppSettings> modelApplied) {
    ReadOnlyStringWrapper policyError = new ReadOnlyStringWrapper("");
    this.policy = new PolicyEditor(background, ui, policyError);
    this.model = new ModelSettings(background, ui, store, initial, modelCatalog, modelApplied);
    this.folders = new FoldersSettings(policy);
    this.hosts = new HostsSettings(policy);
    this.grants = new GrantsSettings(policy, policyError);
    this.apps = new AppsSettings(policy, background, ui);
    this.hotkey = new HotkeySettings(ui, store, initial);
    this.theme = new ThemeSettings(store, initial);
  }

  /** Connects to the service's policy and shows it. */
  public void attach(PolicySource source) {
    policy.attach(source);
  }

  /** Reads the policy again (a grant may have been added from the dialog). */
  public void reload() {
    policy.reload();
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

  public HotkeySettings hotkey() {
    return hotkey;
  }

  public ThemeSettings theme() {
    return theme;
  }
}
