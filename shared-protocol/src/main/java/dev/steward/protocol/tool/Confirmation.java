package dev.steward.protocol.tool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/** When a tool's calls need a confirm token (SPEC §2). */
public enum Confirmation {
  NEVER,
  IF_DESTRUCTIVE,
  ALWAYS;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static Confirmation of(String text) {
    return WireEnum.parse(Confirmation.class, text);
  }
}
