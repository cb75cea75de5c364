package dev.steward.app.settings;

import dev.steward.app.config.AppSettings;
import dev.steward.app.config.SettingsStore;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.policy.PolicyDocument;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * The settings screen's logic. Scopes and grants are the service's policy: each change is sent
 * whole through {@code policy.update}, which checks it (a folder must exist, a host must be a host
 * name), and nothing is saved when it is refused — the reason is shown beside the field. The
 * model and theme live in {@code config/settings.json}.
 */
public final class SettingsViewModel {

  private final Executor background;
  private final Executor ui;
  private final SettingsStore store;
  private final Function<String, List<String>> modelCatalog;
  private @Nullable PolicySource policy;
  private PolicyDocument current = PolicyDocument.defaults();
  private AppSettings settings;

  private final ObservableList<PolicyDocument.PathRoot> folders = FXCollections.observableArrayList();
  private final ObservableList<String> hosts = FXCollections.observableArrayList();
  private final ObservableList<PolicyDocument.StandingGrant> grants = FXCollections.observableArrayList();
  private final ObservableList<PolicyDocument.AppEntry> apps = FXCollections.observableArrayList();
  private final ObservableList<DesktopEntries.Proposal> proposals = FXCollections.observableArrayList();
  private final BooleanProperty allowPrivate = new SimpleBooleanProperty(false);
  private final BooleanProperty keepBrowserProfile = new SimpleBooleanProperty(false);
  private final StringProperty newFolder = new SimpleStringProperty("");
  private final BooleanProperty newFolderWritable = new SimpleBooleanProperty(false);
  private final ReadOnlyStringWrapper folderError = new ReadOnlyStringWrapper("");
  private final StringProperty newHost = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper hostError = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper grantError = new ReadOnlyStringWrapper("");
  private final StringProperty ollamaUrl = new SimpleStringProperty("");
  private final StringProperty model = new SimpleStringProperty("");
  private final ObservableList<String> models = FXCollections.observableArrayList();
  private final ReadOnlyStringWrapper modelStatus = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper urlError = new ReadOnlyStringWrapper("");
  private final StringProperty theme = new SimpleStringProperty("light");
  private final StringProperty hotkey = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper hotkeyStatus = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper hotkeyError = new ReadOnlyStringWrapper("");

  /** @param initial the settings in force (already read from {@code store} at start) */
  public SettingsViewModel(
      Executor background, Executor ui, SettingsStore store, AppSettings initial, Function<String, List<String>> modelCatalog) {
    this.background = background;
    this.ui = ui;
    this.store = store;
    this.modelCatalog = modelCatalog;
    this.settings = initial;
    ollamaUrl.set(settings.ollamaUrl());
    model.set(settings.model() == null ? "" : settings.model());
    theme.set(settings.theme());
    hotkey.set(settings.hotkey());
  }

  /** What the app found when it registered the hotkey (active, or why not). */
  public void setHotkeyStatus(String text) {
    ui.execute(() -> hotkeyStatus.set(text));
  }

  /** Saves a new key combination (it takes effect at the next start); refuses one that cannot work. */
  public boolean saveHotkey() {
    try {
      dev.steward.app.hotkey.KeyCombination.parse(hotkey.get());
    } catch (IllegalArgumentException e) {
      hotkeyError.set(e.getMessage());
      return false;
    }
    hotkeyError.set("");
    return saveModel();
  }

  /** Connects to the service's policy and shows it. */
  public void attach(PolicySource source) {
    this.policy = source;
    background.execute(() -> {
      try {
        PolicyDocument doc = source.get();
        ui.execute(() -> show(doc));
      } catch (RuntimeException e) {
        ui.execute(() -> grantError.set("Could not read the policy: " + e.getMessage()));
      }
    });
  }

  /** Reads the policy again (a grant may have been added from the dialog). */
  public void reload() {
    PolicySource s = policy;
    if (s != null) attach(s);
  }

  private void show(PolicyDocument doc) {
    current = doc;
    folders.setAll(doc.paths());
    hosts.setAll(doc.hosts().allow());
    grants.setAll(doc.grants());
    apps.setAll(doc.apps());
    allowPrivate.set(doc.hosts().allowPrivate());
    keepBrowserProfile.set(doc.browser().keepProfile());
  }

  // ---- scopes and grants: every change goes through policy.update ----------------------------

  public void addFolder() {
    String root = newFolder.get().strip();
    if (root.isEmpty()) {
      folderError.set("Type a folder, e.g. ~/Notes");
      return;
    }
    String access = newFolderWritable.get() ? PolicyDocument.PathRoot.READ_WRITE : PolicyDocument.PathRoot.READ;
    change(doc -> {
      List<PolicyDocument.PathRoot> paths = new ArrayList<>(doc.paths());
      paths.removeIf(p -> p.root().equals(root));
      paths.add(new PolicyDocument.PathRoot(root, access));
      return doc.withPaths(paths);
    }, folderError, () -> newFolder.set(""));
  }

  public void removeFolder(PolicyDocument.PathRoot root) {
    change(doc -> {
      List<PolicyDocument.PathRoot> paths = new ArrayList<>(doc.paths());
      paths.remove(root);
      return doc.withPaths(paths);
    }, folderError, () -> {});
  }

  public void addHost() {
    String host = newHost.get().strip().toLowerCase(java.util.Locale.ROOT);
    if (host.isEmpty()) {
      hostError.set("Type a host name, e.g. en.wikipedia.org");
      return;
    }
    change(doc -> {
      List<String> allow = new ArrayList<>(doc.hosts().allow());
      if (!allow.contains(host)) allow.add(host);
      return doc.withHosts(new PolicyDocument.Hosts(allow, doc.hosts().allowPrivate()));
    }, hostError, () -> newHost.set(""));
  }

  public void removeHost(String host) {
    change(doc -> {
      List<String> allow = new ArrayList<>(doc.hosts().allow());
      allow.remove(host);
      return doc.withHosts(new PolicyDocument.Hosts(allow, doc.hosts().allowPrivate()));
    }, hostError, () -> {});
  }

  /** On: web visits share cookies and sign-ins. Off: each starts clean, and the kept profile is deleted. */
  public void setKeepBrowserProfile(boolean keep) {
    change(doc -> doc.withBrowser(new PolicyDocument.Browser(keep)), hostError, () -> {});
  }

  public void revoke(PolicyDocument.StandingGrant grant) {
    change(doc -> {
      List<PolicyDocument.StandingGrant> kept = new ArrayList<>(doc.grants());
      kept.removeIf(g -> g.id().equals(grant.id()));
      return doc.withGrants(kept);
    }, grantError, () -> {});
  }

  /** Proposals from the installed desktop entries that are not on the allowlist yet. */
  public void proposeApps(List<java.nio.file.Path> folders) {
    background.execute(() -> {
      List<DesktopEntries.Proposal> found = DesktopEntries.scan(folders);
      ui.execute(() -> proposals.setAll(found.stream().filter(p -> apps.stream().noneMatch(a -> a.id().equals(p.entry().id()))).toList()));
    });
  }

  public void addApp(DesktopEntries.Proposal proposal) {
    change(doc -> {
      List<PolicyDocument.AppEntry> all = new ArrayList<>(doc.apps());
      all.removeIf(a -> a.id().equals(proposal.entry().id()));
      all.add(proposal.entry());
      return doc.withApps(all);
    }, grantError, () -> proposals.remove(proposal));
  }

  public ObservableList<DesktopEntries.Proposal> proposals() {
    return proposals;
  }

  public void removeApp(PolicyDocument.AppEntry app) {
    change(doc -> {
      List<PolicyDocument.AppEntry> kept = new ArrayList<>(doc.apps());
      kept.removeIf(a -> a.id().equals(app.id()));
      return doc.withApps(kept);
    }, grantError, () -> {});
  }

  /** Applies a change to the policy in force and sends it; on refusal the reason goes to {@code error}. */
  private void change(UnaryOperator<PolicyDocument> edit, ReadOnlyStringWrapper error, Runnable onSaved) {
    PolicySource s = policy;
    if (s == null) {
      error.set("Not connected to the service yet");
      return;
    }
    background.execute(() -> {
      try {
        PolicyDocument saved = s.update(edit.apply(s.get()));
        ui.execute(() -> {
          error.set("");
          show(saved);
          onSaved.run();
        });
      } catch (ClientException | IllegalArgumentException e) {
        dev.steward.protocol.jsonrpc.RpcError rpc = e instanceof ClientException ce ? ce.rpcError() : null;
        String why = rpc != null ? rpc.message() : String.valueOf(e.getMessage());
        ui.execute(() -> {
          error.set(why.replaceFirst("^policy\\.json: ", ""));
          show(current); // a box ticked for a change that was refused shows what is in force
        });
      }
    });
  }

  // ---- model and theme: config/settings.json -----------------------------------------------

  /** Asks the server at the URL for its models and fills the picker. */
  public void testConnection() {
    String url = ollamaUrl.get().strip();
    String bad = urlProblem(url);
    if (bad != null) {
      urlError.set(bad);
      return;
    }
    urlError.set("");
    modelStatus.set("Asking " + url + "…");
    background.execute(() -> {
      try {
        List<String> names = modelCatalog.apply(url);
        ui.execute(() -> {
          models.setAll(names);
          modelStatus.set(names.isEmpty() ? "Connected; the server has no models yet (ollama pull <model>)" : "Connected: " + names.size() + " models");
        });
      } catch (RuntimeException e) {
        ui.execute(() -> modelStatus.set(e.getMessage()));
      }
    });
  }

  /** Saves the model settings; answers false (and says why) when the URL is not usable. */
  public boolean saveModel() {
    String url = ollamaUrl.get().strip();
    String bad = urlProblem(url);
    if (bad != null) {
      urlError.set(bad);
      return false;
    }
    urlError.set("");
    String keys = hotkeyError.get().isEmpty() && !hotkey.get().isBlank() ? hotkey.get().strip() : settings.hotkey();
    AppSettings next = new AppSettings(url, model.get(), keys, theme.get(), settings.confirmTtlS(), settings.stepLimit());
    try {
      store.save(next);
      settings = next;
      modelStatus.set("Saved. The new model is used from the next message after a restart of the window.");
      return true;
    } catch (IOException e) {
      modelStatus.set("Could not save: " + e.getMessage());
      return false;
    }
  }

  static @Nullable String urlProblem(String url) {
    try {
      URI uri = new URI(url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) return "The server's address starts with http:// or https://";
      if (uri.getHost() == null) return "The address has no host, e.g. http://localhost:11434";
      return null;
    } catch (URISyntaxException e) {
      return "Not an address: " + e.getReason();
    }
  }

  public ObservableList<PolicyDocument.PathRoot> folders() {
    return folders;
  }

  public ObservableList<String> hosts() {
    return hosts;
  }

  public ObservableList<PolicyDocument.StandingGrant> grants() {
    return grants;
  }

  public ObservableList<PolicyDocument.AppEntry> apps() {
    return apps;
  }

  public BooleanProperty keepBrowserProfileProperty() {
    return keepBrowserProfile;
  }

  public BooleanProperty allowPrivateProperty() {
    return allowPrivate;
  }

  public StringProperty newFolderProperty() {
    return newFolder;
  }

  public BooleanProperty newFolderWritableProperty() {
    return newFolderWritable;
  }

  public ReadOnlyStringProperty folderErrorProperty() {
    return folderError.getReadOnlyProperty();
  }

  public StringProperty newHostProperty() {
    return newHost;
  }

  public ReadOnlyStringProperty hostErrorProperty() {
    return hostError.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty grantErrorProperty() {
    return grantError.getReadOnlyProperty();
  }

  public StringProperty ollamaUrlProperty() {
    return ollamaUrl;
  }

  public StringProperty modelProperty() {
    return model;
  }

  public ObservableList<String> models() {
    return models;
  }

  public ReadOnlyStringProperty modelStatusProperty() {
    return modelStatus.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty urlErrorProperty() {
    return urlError.getReadOnlyProperty();
  }

  public StringProperty themeProperty() {
    return theme;
  }

  public StringProperty hotkeyProperty() {
    return hotkey;
  }

  public ReadOnlyStringProperty hotkeyStatusProperty() {
    return hotkeyStatus.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty hotkeyErrorProperty() {
    return hotkeyError.getReadOnlyProperty();
  }
}
