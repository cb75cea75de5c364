package dev.steward.app.agent;

/** A tool call card's state (SPEC §8). */
public enum CallState {
  CHECKING("checking"),
  WAITING("waiting for approval"),
  RUNNING("running"),
  DONE("done"),
  BLOCKED("blocked"),
  /** The user said no in the dialog. */
  DECLINED("declined by you"),
  /** The dialog's time ran out; nothing ran, and the call can be asked again. */
  EXPIRED("approval expired"),
  FAILED("failed");

  private final String label;

  CallState(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean finished() {
    return this == DONE || this == BLOCKED || this == DECLINED || this == EXPIRED || this == FAILED;
  }
}
