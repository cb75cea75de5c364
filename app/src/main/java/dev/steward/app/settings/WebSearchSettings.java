package dev.steward.app.settings;

import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.policy.PolicyDocument;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.jspecify.annotations.Nullable;

/**
 * Settings, "Web search": which engine {@code web.search} asks — none, the user's own SearXNG (its
 * address), Tavily or Brave Search (an API key, kept through {@code secrets.set} and never shown
 * again). The query is what leaves the machine; the section says so.
 */
public final class WebSearchSettings {

  /** The choice "none", beside the providers' own names. */
  public static final String NONE = "none";

  private final PolicyEditor policy;
  private final Executor background;
  private final Executor ui;
  private @Nullable SecretsSink secrets;
  private final StringProperty provider = new SimpleStringProperty(NONE);
  private final StringProperty url = new SimpleStringProperty("");
  private final StringProperty apiKey = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  WebSearchSettings(PolicyEditor policy, Executor background, Executor ui) {
    this.policy = policy;
    this.background = background;
    this.ui = ui;
    policy.onShow(doc -> {
      String p = doc.webSearch().provider();
      provider.set(p == null ? NONE : p);
      String u = doc.webSearch().url();
      url.set(u == null ? "" : u);
    });
  }

  void attach(SecretsSink sink) {
    this.secrets = sink;
  }

  public void save() {
    String chosen = provider.get();
    String address = url.get().strip();
    if (chosen.equals("searxng") && address.isEmpty()) {
      error.set("Type your SearXNG's address, e.g. http://127.0.0.1:8888");
      return;
    }
    PolicyDocument.WebSearch next = chosen.equals(NONE)
        ? PolicyDocument.WebSearch.NONE
        : new PolicyDocument.WebSearch(chosen, address.isEmpty() ? null : address);
    String key = apiKey.get().strip();
    status.set("");
    policy.change(doc -> doc.withWebSearch(next), error, () -> {
      SecretsSink sink = secrets;
      if (key.isEmpty() || sink == null) {
        status.set("Saved");
        return;
      }
      background.execute(() -> {
        try {
          sink.set("web_search", "api_key", key);
          ui.execute(() -> {
            apiKey.set("");
            status.set("Saved; the key is kept in config/secrets.json");
          });
        } catch (ClientException | IllegalArgumentException e) {
          var rpc = e instanceof ClientException ce ? ce.rpcError() : null;
          String why = rpc != null ? rpc.message() : String.valueOf(e.getMessage());
          ui.execute(() -> error.set(why));
        }
      });
    });
  }

  public StringProperty providerProperty() {
    return provider;
  }

  public StringProperty urlProperty() {
    return url;
  }

  public StringProperty apiKeyProperty() {
    return apiKey;
  }

  public ReadOnlyStringProperty statusProperty() {
    return status.getReadOnlyProperty();
  }

  public ReadOnlyStringProperty errorProperty() {
    return error.getReadOnlyProperty();
  }
}
