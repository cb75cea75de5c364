package dev.steward.protocol.audit;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.steward.protocol.json.WireEnum;

/**
 * What an audit row records (SPEC §7): a {@code decision} (written before a tool runs, or alone
 * for a refused call), its {@code completion}, a {@code preflight} (a decision asked for without
 * running), a {@code grant} (a token minted or revoked), a {@code policy} change (the user's
 * folders, hosts, standing grants, overrides or MCP servers, and the settings' other acts: a
 * secret set, tools accepted, a sign-in; beyond SPEC §7) or a {@code protocol} refusal (before any
 * tool was chosen).
 */
public enum AuditKind {
  DECISION,
  COMPLETION,
  PREFLIGHT,
  GRANT,
  POLICY,
  PROTOCOL;

  @JsonValue
  public String wire() {
    return WireEnum.wire(this);
  }

  @JsonCreator
  public static AuditKind of(String text) {
    return WireEnum.parse(AuditKind.class, text);
  }
}
