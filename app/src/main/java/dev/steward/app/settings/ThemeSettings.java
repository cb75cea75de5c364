package dev.steward.app.settings;

import dev.steward.app.config.AppSettings;
import dev.steward.app.config.SettingsStore;
import java.io.IOException;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** Settings, "Appearance": light or dark, saved as soon as it is picked. */
public final class ThemeSettings {

  private final SettingsStore store;
  private final StringProperty theme = new SimpleStringProperty("light");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  ThemeSettings(SettingsStore store, AppSettings initial) {
    this.store = store;
    theme.set(initial.theme());
  }

  /** Saves the theme picked (and nothing else). */
  public void save() {
    String picked = theme.get();
    try {
      store.update(s -> s.withTheme(picked));
      error.set("");
    } catch (IOException e) {
      error.set("Could not save: " + e.getMessage());
    }
  }

  public StringProperty themeProperty() {
    return theme;
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
