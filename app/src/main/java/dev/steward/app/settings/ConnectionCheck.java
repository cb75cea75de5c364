package dev.steward.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.ClientException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.jspecify.annotations.Nullable;

/**
 * A section's "Test connection": asks the pack's check method off the UI thread and says, back on
 * it, what the pack found — what worked, or exactly what failed.
 */
final class ConnectionCheck {

  private final Executor background;
  private final Executor ui;
  private final String method;
  private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
  private @Nullable PackCalls calls;

  ConnectionCheck(Executor background, Executor ui, String method) {
    this.background = background;
    this.ui = ui;
    this.method = method;
  }

  void attach(PackCalls calls) {
    this.calls = calls;
  }

  /** Runs the check; {@code say} turns the pack's answer into words, shown in {@code status}. */
  void run(
      ReadOnlyStringWrapper status, ReadOnlyStringWrapper error, Function<JsonNode, Outcome> say) {
    PackCalls c = calls;
    if (c == null) {
      error.set("Steward's service is not connected");
      return;
    }
    running.set(true);
    status.set("Testing…");
    error.set("");
    background.execute(() -> {
      Outcome outcome;
      try {
        outcome = say.apply(c.call(method, dev.steward.protocol.json.Json.object()));
      } catch (ClientException e) {
        var rpc = e.rpcError();
        outcome = new Outcome(false, rpc != null ? rpc.message() : String.valueOf(e.getMessage()));
      }
      Outcome shown = outcome;
      ui.execute(() -> {
        running.set(false);
        status.set(shown.ok() ? shown.words() : "");
        error.set(shown.ok() ? "" : shown.words());
      });
    });
  }

  ReadOnlyBooleanProperty runningProperty() {
    return running.getReadOnlyProperty();
  }

  /** What a check found, in a user's words. */
  record Outcome(boolean ok, String words) {}
}
