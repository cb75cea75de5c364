package dev.steward.app.settings;

import dev.steward.app.config.AppSettings;
import dev.steward.app.config.SettingsStore;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/** Settings, "Model": the model server's address, its models, and the one to use. */
public final class ModelSettings {

  private final Executor background;
  private final Executor ui;
  private final SettingsStore store;
  private final Function<String, List<OfferedModel>> catalog;
  private final java.util.function.Consumer<AppSettings> applied;
  private final StringProperty ollamaUrl = new SimpleStringProperty("");
  private final StringProperty model = new SimpleStringProperty("");
  private final ObservableList<String> models = FXCollections.observableArrayList();
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper urlError = new ReadOnlyStringWrapper("");
  /** The listed models that call tools; the picker marks them, and warns about the others. */
  private final java.util.Set<String> callsTools = new java.util.HashSet<>();

  private final ReadOnlyStringWrapper warning = new ReadOnlyStringWrapper("");

  /**
   * @param catalog the models the server at an address has
   * @param applied told the settings in effect after each save, to use them from the next message
   */
  ModelSettings(
      Executor background,
      Executor ui,
      SettingsStore store,
      AppSettings initial,
      Function<String, List<OfferedModel>> catalog,
      java.util.function.Consumer<AppSettings> applied) {
    this.applied = applied;
    this.background = background;
    this.ui = ui;
    this.store = store;
    this.catalog = catalog;
    ollamaUrl.set(initial.ollamaUrl());
    model.set(initial.model() == null ? "" : initial.model());
    model.addListener((o, was, now) -> checkChoice());
  }

  /** Whether the picked model is one the server says cannot call tools. */
  private void checkChoice() {
    String picked = model.get() == null ? "" : model.get().strip();
    boolean known = models.contains(picked);
    warning.set(
        known && !callsTools.contains(picked)
            ? picked
                + " does not call tools: with it Steward can only talk, not act. Pick one marked \"calls tools\"."
            : "");
  }

  /** Whether {@code name} is a listed model that calls tools. */
  public boolean callsTools(String name) {
    return callsTools.contains(name);
  }

  public ReadOnlyStringProperty warningProperty() {
    return warning.getReadOnlyProperty();
  }

  /** Asks the server at the URL for its models and fills the picker. */
  public void testConnection() {
    String url = ollamaUrl.get().strip();
    String bad = urlProblem(url);
    if (bad != null) {
      urlError.set(bad);
      return;
    }
    urlError.set("");
    status.set("Asking " + url + "…");
    background.execute(() -> {
      try {
        List<OfferedModel> offered = catalog.apply(url);
        ui.execute(() -> {
          callsTools.clear();
          offered.stream()
              .filter(OfferedModel::callsTools)
              .map(OfferedModel::name)
              .forEach(callsTools::add);
          models.setAll(offered.stream().map(OfferedModel::name).toList());
          checkChoice();
          status.set(
              offered.isEmpty()
                  ? "Connected; the server has no models yet (ollama pull <model>)"
                  : "Connected: " + offered.size() + " models, " + callsTools.size()
                      + " of them call tools");
        });
      } catch (RuntimeException e) {
        ui.execute(() -> status.set(e.getMessage()));
      }
    });
  }

  /** Saves the server and model; answers false (and says why) when the URL is not usable. */
  public boolean save() {
    String url = ollamaUrl.get().strip();
    String bad = urlProblem(url);
    if (bad != null) {
      urlError.set(bad);
      return false;
    }
    urlError.set("");
    String name = model.get();
    try {
      AppSettings now = store.update(s -> s.withOllamaUrl(url).withModel(name));
      applied.accept(now);
      status.set("Saved: the next message uses "
          + (now.model() == null ? "the first model that calls tools" : now.model()) + " at "
          + now.ollamaUrl() + ".");
      return true;
    } catch (IOException e) {
      status.set("Could not save: " + e.getMessage());
      return false;
    }
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

  public StringProperty ollamaUrlProperty() {
    return ollamaUrl;
  }

  public StringProperty modelProperty() {
    return model;
  }

  public ObservableList<String> models() {
    return models;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty urlErrorProperty() {
    return urlError.getReadOnlyProperty();
  }
}
