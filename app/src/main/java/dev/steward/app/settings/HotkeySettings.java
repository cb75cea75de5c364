package dev.steward.app.settings;

import dev.steward.app.config.AppSettings;
import dev.steward.app.config.SettingsStore;
import dev.steward.app.hotkey.KeyCombination;
import java.io.IOException;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** Settings, "Global hotkey": the keys that bring the window back, and whether they are active. */
public final class HotkeySettings {

  private final Executor ui;
  private final SettingsStore store;
  private final StringProperty keys = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  HotkeySettings(Executor ui, SettingsStore store, AppSettings initial) {
    this.ui = ui;
    this.store = store;
    keys.set(initial.hotkey());
  }

  /** What the app found when it registered the hotkey (active, or why not). */
  public void setStatus(String text) {
    ui.execute(() -> status.set(text));
  }

  /** Saves a new key combination (it takes effect at the next start); refuses one that cannot work. */
  public boolean save() {
    String typed = keys.get().strip();
    try {
      KeyCombination.parse(typed);
    } catch (IllegalArgumentException e) {
      error.set(e.getMessage());
      return false;
    }
    try {
      store.update(s -> s.withHotkey(typed));
      error.set("");
      return true;
    } catch (IOException e) {
      error.set("Could not save: " + e.getMessage());
      return false;
    }
  }

  public StringProperty keysProperty() {
    return keys;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
