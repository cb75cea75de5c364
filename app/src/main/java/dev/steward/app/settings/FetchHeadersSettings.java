package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.jspecify.annotations.Nullable;

/**
 * Settings, "Sign-ins for web addresses": request headers {@code web.fetch} sends to exactly one
 * address (an API token, a session cookie). The list shows names only — the service never sends a
 * value back — and a value typed here goes once, through the web pack's own method, into {@code
 * config/secrets.json}.
 */
public final class FetchHeadersSettings {

  static final String LIST = "web.fetch_headers";
  static final String SET = "web.fetch_header_set";

  /** One configured header: where it goes and its name. */
  public record Entry(String origin, String name) {
    public String label() {
      return origin + " — " + name;
    }
  }

  private final Executor background;
  private final Executor ui;
  private final ObservableList<Entry> entries = FXCollections.observableArrayList();
  private final StringProperty origin = new SimpleStringProperty("");
  private final StringProperty name = new SimpleStringProperty("Authorization");
  private final StringProperty value = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
  private @Nullable PackCalls calls;

  FetchHeadersSettings(Executor background, Executor ui) {
    this.background = background;
    this.ui = ui;
  }

  void attach(PackCalls calls) {
    this.calls = calls;
    refresh();
  }

  /** Asks the service what is configured (names only) and shows it. */
  void refresh() {
    PackCalls c = calls;
    if (c == null) return;
    background.execute(() -> {
      try {
        List<Entry> found = new ArrayList<>();
        for (JsonNode h : c.call(LIST, Json.object()).path("headers")) {
          found.add(new Entry(h.path("origin").asText(), h.path("name").asText()));
        }
        ui.execute(() -> {
          entries.setAll(found);
          error.set("");
        });
      } catch (RuntimeException e) {
        String why = reason(e);
        ui.execute(() -> error.set(why));
      }
    });
  }

  /** Adds (or replaces) the typed header; the value field is emptied once it is kept. */
  public void add() {
    String to = origin.get().strip();
    String header = name.get().strip();
    String typed = value.get();
    if (to.isEmpty() || header.isEmpty() || typed.isBlank()) {
      error.set("Type the address (https://api.example.org), the header's name and its value");
      return;
    }
    ObjectNode params = Json.object().put("origin", to).put("name", header).put("value", typed);
    send(params, () -> {
      value.set("");
      status.set("Saved; the value is kept in config/secrets.json and never shown again");
    });
  }

  public void remove(Entry entry) {
    ObjectNode params =
        Json.object().put("origin", entry.origin()).put("name", entry.name()).putNull("value");
    send(params, () -> status.set("Removed " + entry.label()));
  }

  private void send(ObjectNode params, Runnable done) {
    PackCalls c = calls;
    if (c == null) {
      error.set("Steward's service is not connected");
      return;
    }
    status.set("");
    error.set("");
    background.execute(() -> {
      try {
        c.call(SET, params);
        ui.execute(() -> {
          done.run();
          refresh();
        });
      } catch (RuntimeException e) {
        String why = reason(e);
        ui.execute(() -> error.set(why));
      }
    });
  }

  private static String reason(RuntimeException e) {
    var rpc = e instanceof ClientException c ? c.rpcError() : null;
    return rpc != null ? rpc.message() : String.valueOf(e.getMessage());
  }

  public ObservableList<Entry> entries() {
    return entries;
  }

  public StringProperty originProperty() {
    return origin;
  }

  public StringProperty nameProperty() {
    return name;
  }

  public StringProperty valueProperty() {
    return value;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
