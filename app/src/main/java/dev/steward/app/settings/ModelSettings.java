package dev.steward.app.settings;

import dev.steward.app.agent.LocalServers;
import dev.steward.app.agent.ModelCatalog;
import dev.steward.app.agent.ModelServer;
import dev.steward.app.config.AppSettings;
import dev.steward.app.config.ModelKey;
import dev.steward.app.config.SettingsStore;
import dev.steward.protocol.util.Counted;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * Settings, "Model": the kind of server (Ollama or OpenAI-compatible), its address, its key where
 * it wants one, its models and the one to use; and the servers found running on this machine.
 */
public final class ModelSettings {

  private final Executor background;
  private final Executor ui;
  private final SettingsStore store;
  private final ModelKey key;
  private final ModelServers servers;
  private final Consumer<AppSettings> applied;
  /** {@link AppSettings#OLLAMA} or {@link AppSettings#OPENAI_COMPATIBLE}. */
  private final StringProperty provider = new SimpleStringProperty(AppSettings.OLLAMA);

  private final StringProperty url = new SimpleStringProperty("");
  /** Each provider's address, so switching back and forth keeps what was typed. */
  private final Map<String, String> urls = new HashMap<>();

  private final StringProperty model = new SimpleStringProperty("");
  /** A new key to save; the saved one is never shown. */
  private final StringProperty newKey = new SimpleStringProperty("");

  private final ReadOnlyBooleanWrapper keySaved = new ReadOnlyBooleanWrapper(false);
  private final ObservableList<String> models = FXCollections.observableArrayList();
  private final ObservableList<LocalServers.Found> found = FXCollections.observableArrayList();
  private final Map<String, ModelCatalog.ToolUse> toolUse = new HashMap<>();
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper urlError = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper warning = new ReadOnlyStringWrapper("");

  /**
   * @param servers asked for a server's models and for the servers running here
   * @param applied told the settings in effect after each save, to use them from the next message
   */
  ModelSettings(
      Executor background,
      Executor ui,
      SettingsStore store,
      ModelKey key,
      AppSettings initial,
      ModelServers servers,
      Consumer<AppSettings> applied) {
    this.applied = applied;
    this.background = background;
    this.ui = ui;
    this.store = store;
    this.key = key;
    this.servers = servers;
    urls.put(AppSettings.OLLAMA, initial.ollamaUrl());
    urls.put(AppSettings.OPENAI_COMPATIBLE, initial.openaiUrl());
    provider.set(initial.provider());
    url.set(initial.serverUrl());
    provider.addListener((o, was, now) -> {
      if (was != null) urls.put(was, url.get());
      url.set(urls.getOrDefault(now, ""));
      models.clear();
      toolUse.clear();
      checkChoice();
    });
    model.set(initial.model() == null ? "" : initial.model());
    model.addListener((o, was, now) -> checkChoice());
    try {
      keySaved.set(key.saved());
    } catch (IOException e) {
      status.set("The model key could not be read: " + e.getMessage());
    }
  }

  private boolean openAi() {
    return AppSettings.OPENAI_COMPATIBLE.equals(provider.get());
  }

  /** Whether the picked model is one the server says cannot call tools. */
  private void checkChoice() {
    String picked = model.get() == null ? "" : model.get().strip();
    warning.set(
        toolUse.get(picked) == ModelCatalog.ToolUse.NO_TOOLS
            ? picked
                + " does not call tools: with it Steward can only talk, not act. Pick one marked \"calls tools\"."
            : "");
  }

  /** What the server said about a listed model and tools. */
  public ModelCatalog.ToolUse toolUse(String name) {
    return toolUse.getOrDefault(name, ModelCatalog.ToolUse.NOT_SAID);
  }

  /** Whether {@code name} is a listed model that calls tools. */
  public boolean callsTools(String name) {
    return toolUse(name) == ModelCatalog.ToolUse.CALLS_TOOLS;
  }

  /** Asks the server at the address for its models and fills the picker. */
  public void testConnection() {
    String address = url.get().strip();
    String bad = urlProblem(address);
    if (bad != null) {
      urlError.set(bad);
      return;
    }
    urlError.set("");
    status.set("Asking " + address + "…");
    ModelServer server = server(address);
    background.execute(() -> {
      try {
        List<ModelCatalog.Offered> offered = servers.models(server);
        ui.execute(() -> {
          toolUse.clear();
          offered.forEach(o -> toolUse.put(o.name(), o.tools()));
          models.setAll(offered.stream().map(ModelCatalog.Offered::name).toList());
          checkChoice();
          long calling = offered.stream()
              .filter(o -> o.tools() == ModelCatalog.ToolUse.CALLS_TOOLS)
              .count();
          status.set(
              offered.isEmpty()
                  ? "Connected; the server has no models yet"
                      + (openAi() ? " (load one in it)" : " (ollama pull <model>)")
                  : openAi()
                      ? "Connected: " + Counted.of(offered.size(), "model", "models")
                          + " (this kind of server does not say which call tools)"
                      : "Connected: " + Counted.of(offered.size(), "model", "models") + ", "
                          + (offered.size() == 1
                              ? (calling == 1 ? "it calls tools" : "it does not call tools")
                              : calling + " of them call tools"));
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set(e.getMessage()));
      }
    });
  }

  /**
   * The saved server's models, for the chat's own picker (what Settings has typed but not saved
   * is left alone): asked off the UI thread, answered on it with the models, or none and why.
   */
  public void savedServerModels(BiConsumer<List<ModelCatalog.Offered>, String> answer) {
    AppSettings saved = store.load().settings();
    String savedKey;
    try {
      savedKey = key.readFor(saved.serverUrl()).orElse(null);
    } catch (IOException e) {
      savedKey = null;
    }
    ModelServer server = new ModelServer(
        AppSettings.OPENAI_COMPATIBLE.equals(saved.provider())
            ? ModelServer.Kind.OPENAI_COMPATIBLE
            : ModelServer.Kind.OLLAMA,
        saved.serverUrl(),
        null,
        savedKey);
    background.execute(() -> {
      try {
        List<ModelCatalog.Offered> offered = servers.models(server);
        ui.execute(() -> {
          offered.forEach(o -> toolUse.put(o.name(), o.tools()));
          answer.accept(offered, "");
        });
      } catch (RuntimeException e) {
        ui.execute(() -> answer.accept(
            List.of(), e.getMessage() == null ? "The server did not answer" : e.getMessage()));
      }
    });
  }

  /** Uses this model of the saved server from the next message, and saves it as the choice. */
  public boolean useModel(String name) {
    try {
      AppSettings now = store.update(s -> s.withModel(name));
      model.set(name);
      applied.accept(now);
      status.set("Saved: the next message uses " + name + ".");
      return true;
    } catch (IOException e) {
      status.set("Could not save: " + e.getMessage());
      return false;
    }
  }

  /** Looks for model servers on this machine's usual ports and lists them. */
  public void findServers() {
    status.set("Looking for model servers on this machine…");
    background.execute(() -> {
      List<LocalServers.Found> running = servers.running();
      ui.execute(() -> {
        found.setAll(running);
        status.set(
            running.isEmpty()
                ? "No model server answers on the usual ports (Ollama 11434, LM Studio 1234,"
                    + " llama-server 8080, Jan 1337, vLLM 8000)."
                : "Found " + Counted.of(running.size(), "server", "servers")
                    + ": choose one to use it.");
      });
    });
  }

  /** Takes a found server as the one to use (not saved until Save) and lists its models. */
  public void use(LocalServers.Found server) {
    provider.set(
        server.kind() == ModelServer.Kind.OPENAI_COMPATIBLE
            ? AppSettings.OPENAI_COMPATIBLE
            : AppSettings.OLLAMA);
    url.set(server.url());
    testConnection();
  }

  /** Saves the server, model and a newly typed key; answers false (and says why) on a bad URL. */
  public boolean save() {
    String address = url.get().strip();
    String bad = urlProblem(address);
    if (bad != null) {
      urlError.set(bad);
      return false;
    }
    urlError.set("");
    String name = model.get();
    String kind = provider.get();
    try {
      String typed = newKey.get() == null ? "" : newKey.get().strip();
      if (!typed.isEmpty()) {
        key.write(typed, address);
        newKey.set("");
        keySaved.set(true);
      }
      AppSettings now = store.update(s -> s.withServer(kind, address).withModel(name));
      applied.accept(now);
      // A key goes only to the server it was saved for: another address does not get it.
      String keyElsewhere = key.saved() && key.readFor(now.serverUrl()).isEmpty()
          ? " The saved key is for " + key.savedFor().orElse("another server")
              + " and is not sent to this one: type it again to use it here."
          : "";
      status.set("Saved: the next message uses "
          + (now.model() == null ? "the first suitable model" : now.model()) + " at "
          + now.serverUrl() + "." + keyElsewhere);
      return true;
    } catch (IOException e) {
      status.set("Could not save: " + e.getMessage());
      return false;
    }
  }

  /** Forgets the saved key. */
  public void removeKey() {
    try {
      key.remove();
      keySaved.set(false);
      applied.accept(store.load().settings());
      status.set("The key was removed.");
    } catch (IOException e) {
      status.set("Could not remove the key: " + e.getMessage());
    }
  }

  private ModelServer server(String address) {
    String k = newKey.get() == null ? "" : newKey.get().strip();
    String saved = null;
    if (k.isEmpty()) {
      try {
        saved = key.readFor(address).orElse(null);
      } catch (IOException e) {
        saved = null;
      }
    }
    return new ModelServer(
        openAi() ? ModelServer.Kind.OPENAI_COMPATIBLE : ModelServer.Kind.OLLAMA,
        address,
        null,
        k.isEmpty() ? saved : k);
  }

  static @Nullable String urlProblem(String url) {
    try {
      URI uri = new URI(url);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()))
        return "The server's address starts with http:// or https://";
      if (uri.getHost() == null) return "The address has no host, e.g. http://localhost:11434";
      return null;
    } catch (URISyntaxException e) {
      return "Not an address: " + e.getReason();
    }
  }

  public StringProperty providerProperty() {
    return provider;
  }

  public StringProperty urlProperty() {
    return url;
  }

  public StringProperty modelProperty() {
    return model;
  }

  public StringProperty newKeyProperty() {
    return newKey;
  }

  public ReadOnlyBooleanProperty keySavedProperty() {
    return keySaved.getReadOnlyProperty();
  }

  public ObservableList<String> models() {
    return models;
  }

  public ObservableList<LocalServers.Found> found() {
    return found;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty urlErrorProperty() {
    return urlError.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty warningProperty() {
    return warning.getReadOnlyProperty();
  }
}
