package dev.steward.protocol.audit;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/**
 * What the gate decided for a call: {@code allowed} by policy or a standing grant, {@code
 * confirmed} by the user's click, {@code blocked} by a rule, or {@code denied} by the user in the
 * dialog.
 */
public enum Decision {
  ALLOWED,
  CONFIRMED,
  BLOCKED,
  DENIED;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static Decision of(String text) {
    return WireEnum.parse(Decision.class, text);
  }
}
