package dev.steward.app.agent;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The model the settings name, switched when they change: the next message uses the new server
 * and model, with no restart of the window. A turn already running keeps the model it started with.
 */
public final class SwitchableModelSource implements ModelSource {

  private final Duration timeout;
  private volatile ModelSource current;

  public SwitchableModelSource(String baseUrl, @Nullable String model, Duration timeout) {
    this.timeout = timeout;
    this.current = new OllamaModelSource(baseUrl, model, timeout);
  }

  /** From now on, the model {@code model} (or the first that calls tools) at {@code baseUrl}. */
  public void use(String baseUrl, @Nullable String model) {
    current = new OllamaModelSource(baseUrl, model, timeout);
  }

  @Override
  public Model model() {
    return current.model();
  }
}
