package dev.steward.app.settings;

import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.jspecify.annotations.Nullable;

/**
 * The service's policy as the settings sections share it: read from the service, changed whole
 * through {@code policy.update} (which checks it: a folder must exist, a host must be a host name),
 * and shown to every section after each read or change. Nothing is saved when a change is refused;
 * the reason goes to the field the change came from.
 */
public final class PolicyEditor {

  private final Executor background;
  private final Executor ui;
  private final List<Consumer<PolicyDocument>> shows = new ArrayList<>();
  private @Nullable PolicySource source;
  private PolicyDocument current = PolicyDocument.defaults();
  private final ReadOnlyStringWrapper readError;

  /** @param readError where a failure to read the policy is shown */
  PolicyEditor(Executor background, Executor ui, ReadOnlyStringWrapper readError) {
    this.background = background;
    this.ui = ui;
    this.readError = readError;
  }

  /** {@code show} is given the policy in force whenever it is read or changed (on the UI thread). */
  void onShow(Consumer<PolicyDocument> show) {
    shows.add(show);
  }

  /** As {@link #onShow}, and shown the policy as last read at once (a section made later). */
  void follow(Consumer<PolicyDocument> show) {
    shows.add(show);
    show.accept(current);
  }

  /** Connects to the service's policy and shows it. */
  void attach(PolicySource source) {
    this.source = source;
    background.execute(() -> {
      try {
        PolicyDocument doc = source.get();
        ui.execute(() -> show(doc));
      } catch (RuntimeException e) {
        ui.execute(() -> readError.set("Could not read the policy: " + e.getMessage()));
      }
    });
  }

  /** Reads the policy again (a grant may have been added from the dialog). */
  void reload() {
    PolicySource s = source;
    if (s != null) attach(s);
  }

  private void show(PolicyDocument doc) {
    current = doc;
    shows.forEach(s -> s.accept(doc));
  }

  /** Applies a change to the policy in force and sends it; on refusal the reason goes to {@code error}. */
  void change(UnaryOperator<PolicyDocument> edit, ReadOnlyStringWrapper error, Runnable onSaved) {
    PolicySource s = source;
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
        dev.steward.protocol.jsonrpc.RpcError rpc =
            e instanceof ClientException ce ? ce.rpcError() : null;
        String why = rpc != null ? rpc.message() : String.valueOf(e.getMessage());
        ui.execute(() -> {
          error.set(why.replaceFirst("^policy\\.json: ", ""));
          show(current); // a box ticked for a change that was refused shows what is in force
        });
      }
    });
  }
}
