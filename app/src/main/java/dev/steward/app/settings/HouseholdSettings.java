package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import java.util.LinkedHashMap;
import java.util.Map;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Settings, "Household data": where recipes, meals and grocery lists are kept — on this computer,
 * or in a PostgreSQL database the household shares ({@code household.db_url}), with the
 * household's database role and, to set the database up, its owner's. Passwords go to the
 * service's {@code secrets.set} and are never shown again: an empty field leaves what is set.
 */
public final class HouseholdSettings {

  static final String SECTION = "household";

  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final BooleanProperty shared = new SimpleBooleanProperty(false);
  private final StringProperty url = new SimpleStringProperty("");
  private final StringProperty username = new SimpleStringProperty("");
  private final StringProperty password = new SimpleStringProperty("");
  private final StringProperty ownerUsername = new SimpleStringProperty("");
  private final StringProperty ownerPassword = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  HouseholdSettings(PolicyEditor policy, SecretsWriter secrets) {
    this.policy = policy;
    this.secrets = secrets;
    policy.onShow(doc -> {
      String dbUrl = doc.household().dbUrl();
      shared.set(dbUrl != null);
      url.set(dbUrl == null ? "" : dbUrl);
    });
  }

  /** Saves where the data is, then the names and passwords typed (the passwords' fields empty). */
  public void save() {
    String dbUrl = shared.get() ? url.get().strip() : null;
    if (dbUrl != null && dbUrl.isEmpty()) {
      error.set("Type the database's address, e.g. jdbc:postgresql://nas.local/household");
      return;
    }
    Map<String, String> typed = new LinkedHashMap<>();
    put(typed, "username", username.get());
    put(typed, "password", password.get());
    put(typed, "owner_username", ownerUsername.get());
    put(typed, "owner_password", ownerPassword.get());
    status.set("");
    policy.change(
        doc -> doc.withHousehold(new PolicyDocument.Household(dbUrl)),
        error,
        () -> saveSecrets(typed));
  }

  private static void put(Map<String, String> typed, String key, String value) {
    if (!value.isBlank()) typed.put(key, value.strip());
  }

  private void saveSecrets(Map<String, String> typed) {
    secrets.write(SECTION, typed, error, written -> {
      if (!written) {
        status.set("Saved");
        return;
      }
      password.set("");
      ownerPassword.set("");
      status.set("Saved; the passwords are kept in config/secrets.json");
    });
  }

  public BooleanProperty sharedProperty() {
    return shared;
  }

  public StringProperty urlProperty() {
    return url;
  }

  public StringProperty usernameProperty() {
    return username;
  }

  public StringProperty passwordProperty() {
    return password;
  }

  public StringProperty ownerUsernameProperty() {
    return ownerUsername;
  }

  public StringProperty ownerPasswordProperty() {
    return ownerPassword;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
