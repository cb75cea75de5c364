package dev.steward.protocol.method;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Who is on the other end of a connection, decided by which secret it presented. Only {@code ui}
 * can mint confirm tokens: the model, behind {@code agent}, cannot approve its own actions.
 */
public enum Role {
  /** The window: may mint tokens, read the audit log, change policy. */
  UI,
  /** The window's agent loop. */
  AGENT,
  /** MCP clients, through the bridge ({@code steward mcp}); taint is kept per connection. */
  MCP;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static Role of(String text) {
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
