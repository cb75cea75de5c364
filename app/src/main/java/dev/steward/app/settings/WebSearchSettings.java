package dev.steward.app.settings;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.util.Counted;
import java.util.Map;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Settings, "Web search": which engine {@code web.search} asks — none, the user's own SearXNG (its
 * address), Tavily or Brave Search (an API key, kept through {@code secrets.set} and never shown
 * again). The query is what leaves the machine; the section says so.
 */
public final class WebSearchSettings {

  /** The choice "none", beside the providers' own names. */
  public static final String NONE = "none";

  private final PolicyEditor policy;
  private final SecretsWriter secrets;
  private final StringProperty provider = new SimpleStringProperty(NONE);
  private final StringProperty url = new SimpleStringProperty("");
  private final StringProperty apiKey = new SimpleStringProperty("");
  private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
  private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

  private final ConnectionCheck check;

  WebSearchSettings(
      PolicyEditor policy,
      SecretsWriter secrets,
      java.util.concurrent.Executor background,
      java.util.concurrent.Executor ui) {
    this.policy = policy;
    this.secrets = secrets;
    this.check = new ConnectionCheck(background, ui, "web.search_check");
    policy.onShow(doc -> {
      String p = doc.webSearch().provider();
      provider.set(p == null ? NONE : p);
      String u = doc.webSearch().url();
      url.set(u == null ? "" : u);
    });
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
    Map<String, String> typed = key.isEmpty() ? Map.of() : Map.of("api_key", key);
    policy.change(
        doc -> doc.withWebSearch(next),
        error,
        () -> secrets.write("web_search", typed, error, written -> {
          if (!written) {
            status.set("Saved");
            return;
          }
          apiKey.set("");
          status.set("Saved; the key is kept in config/secrets.json");
        }));
  }

  void attach(PackCalls calls) {
    check.attach(calls);
  }

  /**
   * "Test": one search for a fixed phrase (nothing of the user's) with the saved engine and key;
   * says how many results came back, or exactly what failed.
   */
  public void test() {
    check.run(
        status,
        error,
        answer -> answer.path("ok").asBoolean(false)
            ? new ConnectionCheck.Outcome(
                true,
                "Works: " + named(answer.path("provider").asText()) + " answered with "
                    + Counted.of(answer.path("results").asInt(), "result", "results"))
            : new ConnectionCheck.Outcome(false, answer.path("problem").asText("the test failed")));
  }

  /** A provider's name as the user chooses it in Settings (an id: {@code tavily}). */
  static String named(String provider) {
    return switch (provider) {
      case "searxng" -> "your SearXNG";
      case "tavily" -> "Tavily";
      case "brave" -> "Brave Search";
      default -> provider;
    };
  }

  public javafx.beans.property.ReadOnlyBooleanProperty testingProperty() {
    return check.runningProperty();
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
