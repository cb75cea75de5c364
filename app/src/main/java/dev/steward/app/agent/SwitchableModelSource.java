package dev.steward.app.agent;

import java.time.Duration;

/**
 * The model the settings name, switched when they change: the next message uses the new server
 * and model, with no restart of the window. A turn already running keeps the model it started with.
 */
public final class SwitchableModelSource implements ModelSource {

  private final Duration timeout;
  private volatile ModelSource current;

  public SwitchableModelSource(ModelServer server, Duration timeout) {
    this.timeout = timeout;
    this.current = server.source(timeout);
  }

  /** From now on, the model the settings name (or the first suitable one) on that server. */
  public void use(ModelServer server) {
    current = server.source(timeout);
  }

  @Override
  public Model model() {
    return current.model();
  }
}
