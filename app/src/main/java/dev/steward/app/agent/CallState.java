package dev.steward.app.agent;

/** A tool call card's state (SPEC §8). */
public enum CallState {
  CHECKING("checking"),
  WAITING("waiting for approval"),
  RUNNING("running"),
  DONE("done"),
  BLOCKED("blocked"),
  FAILED("failed");

  private final String label;

  CallState(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean finished() {
    return this == DONE || this == BLOCKED || this == FAILED;
  }
}
