package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Settings, "Calendar": the one CalDAV calendar the assistant may use (its address), the account's
 * user name and app password (kept through {@code secrets.set}, never shown again), and a test of
 * the connection that says exactly what failed.
 */
public final class CalendarSettings {

  /** The pack's check, answering {@code {ok, calendar?, problem?}}. */
  static final String CHECK = "calendar.check";

  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final ConnectionCheck check;
  private final StringProperty url = new SimpleStringProperty("");
  private final StringProperty username = new SimpleStringProperty("");
  private final StringProperty password = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  CalendarSettings(PolicyEditor policy, SecretsWriter secrets, Executor background, Executor ui) {
    this.policy = policy;
    this.secrets = secrets;
    this.check = new ConnectionCheck(background, ui, CHECK);
    policy.onShow(doc -> {
      String u = doc.calendar().url();
      url.set(u == null ? "" : u);
    });
  }

  void attach(PackCalls calls) {
    check.attach(calls);
  }

  public void save() {
    String address = url.get().strip();
    PolicyDocument.Calendar next;
    try {
      next = new PolicyDocument.Calendar(address.isEmpty() ? null : address);
    } catch (IllegalArgumentException e) {
      error.set(String.valueOf(e.getMessage()));
      return;
    }
    Map<String, String> typed = new LinkedHashMap<>();
    if (!username.get().isBlank()) typed.put("username", username.get().strip());
    if (!password.get().isEmpty()) typed.put("password", password.get());
    status.set("");
    error.set("");
    policy.change(
        doc -> doc.withCalendar(next),
        error,
        () -> secrets.write("calendar", typed, error, written -> {
          if (written) {
            username.set("");
            password.set("");
          }
          status.set(written ? "Saved; the password is kept in config/secrets.json" : "Saved");
        }));
  }

  /** Asks the calendar server with what is saved. */
  public void test() {
    check.run(status, error, CalendarSettings::say);
  }

  static ConnectionCheck.Outcome say(JsonNode answer) {
    if (answer.path("ok").asBoolean(false)) {
      String name = answer.path("calendar").asText("");
      return new ConnectionCheck.Outcome(
          true, name.isEmpty() ? "Connected: the calendar answers" : "Connected to “" + name + "”");
    }
    return new ConnectionCheck.Outcome(false, answer.path("problem").asText("the test failed"));
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

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }

  public ReadOnlyBooleanProperty testingProperty() {
    return check.runningProperty();
  }
}
