package dev.steward.protocol.service;

/** What the window shows about its link to the service. */
public enum ServiceState {
  STARTING("Starting the service…"),
  CONNECTED("Connected"),
  RECONNECTING("Service lost — restarting…"),
  UNAVAILABLE("Service unavailable");

  private final String label;

  ServiceState(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
