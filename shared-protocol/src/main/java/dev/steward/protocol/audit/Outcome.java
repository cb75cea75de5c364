package dev.steward.protocol.audit;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/** How a call ended: {@code ok} or {@code error}. */
public enum Outcome {
  OK,
  ERROR;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static Outcome of(String text) {
    return WireEnum.parse(Outcome.class, text);
  }
}
