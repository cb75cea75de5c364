package dev.steward.protocol.tool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/** Which kind of scope a tool touches. */
public enum ScopeKind {
  PATHS,
  APPS,
  HOSTS;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static ScopeKind of(String text) {
    return WireEnum.parse(ScopeKind.class, text);
  }
}
