package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.util.Counted;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * Settings, "Calendar": the one CalDAV calendar the assistant may use (its address), the account's
 * user name and app password (kept through {@code secrets.set}, never shown again), and a test of
 * the connection that says exactly what failed.
 */
public final class CalendarSettings {

  /** The pack's check, answering {@code {ok, calendar?, problem?}}. */
  static final String CHECK = "calendar.check";

  /** The pack's search of an account: {@code {server}} → {@code {calendars: [{url, name?}]}} or {@code {problem}}. */
  static final String DISCOVER = "calendar.discover";

  /** A calendar found on the server: what the list shows, and its address. */
  public record Found(String name, String url) {
    @Override
    public String toString() {
      return name;
    }
  }

  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final ConnectionCheck check;
  private final StringProperty url = new SimpleStringProperty("");
  private final StringProperty username = new SimpleStringProperty("");
  private final StringProperty password = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
  private final ObservableList<Found> found = FXCollections.observableArrayList();
  private final Executor background;
  private final Executor ui;
  private @Nullable PackCalls calls;

  CalendarSettings(PolicyEditor policy, SecretsWriter secrets, Executor background, Executor ui) {
    this.policy = policy;
    this.secrets = secrets;
    this.check = new ConnectionCheck(background, ui, CHECK);
    this.background = background;
    this.ui = ui;
    policy.onShow(doc -> {
      String u = doc.calendar().url();
      url.set(u == null ? "" : u);
    });
  }

  void attach(PackCalls calls) {
    this.calls = calls;
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
    secrets.saveWithAccount(
        policy, doc -> doc.withCalendar(next), "calendar", username, password, status, error);
  }

  /**
   * "Find my calendars": keeps the typed user name and password, then asks the server at the
   * typed address for the account's calendars; the list fills, or the error says why not.
   */
  public void find() {
    PackCalls c = calls;
    String server = url.get().strip();
    if (c == null || server.isEmpty()) {
      error.set(
          c == null ? "Steward's service is not connected" : "Type your server's address first");
      return;
    }
    Map<String, String> typed = SecretsWriter.account(username.get(), password.get());
    error.set("");
    status.set("Looking…");
    secrets.write("calendar", typed, error, written -> {
      if (written) password.set("");
      background.execute(() -> {
        JsonNode answer;
        try {
          answer = c.call(DISCOVER, dev.steward.protocol.json.Json.object().put("server", server));
        } catch (dev.steward.protocol.client.ClientException e) {
          var rpc = e.rpcError();
          String why = rpc != null ? rpc.message() : String.valueOf(e.getMessage());
          ui.execute(() -> {
            status.set("");
            error.set(why);
          });
          return;
        }
        java.util.List<Found> list = new java.util.ArrayList<>();
        answer
            .path("calendars")
            .forEach(cal -> list.add(new Found(
                cal.path("name").asText(cal.path("url").asText()),
                cal.path("url").asText())));
        String problem = answer.path("problem").asText("");
        ui.execute(() -> {
          found.setAll(list);
          status.set(
              list.isEmpty()
                  ? ""
                  : Counted.of(list.size(), "calendar", "calendars")
                      + " found: pick the assistant's");
          error.set(
              !problem.isEmpty()
                  ? problem
                  : list.isEmpty() ? "No calendar with events found there" : "");
        });
      });
    });
  }

  /** Takes a found calendar's address (then Save keeps it). */
  public void choose(Found calendar) {
    url.set(calendar.url());
    status.set("“" + calendar.name() + "” chosen: Save to use it");
  }

  public ObservableList<Found> found() {
    return found;
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
