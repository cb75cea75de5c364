package dev.steward.protocol.tool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/** How much harm a tool can do: {@code low} runs freely, {@code high} always needs a click. */
public enum Risk {
  LOW,
  MEDIUM,
  HIGH;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static Risk of(String text) {
    return WireEnum.parse(Risk.class, text);
  }
}
