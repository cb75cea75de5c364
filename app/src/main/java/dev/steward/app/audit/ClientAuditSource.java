package dev.steward.app.audit;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import java.util.Set;
import java.util.stream.Collectors;

/** {@link AuditSource} over the ui connection. */
public final class ClientAuditSource implements AuditSource {

  private final StewardClient ui;

  public ClientAuditSource(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public Audit.QueryResult query(Audit.QueryParams params) {
    return ui.call(Methods.AUDIT_QUERY, params, Audit.QueryResult.class);
  }

  @Override
  public Audit.VerifyResult verify() {
    return ui.call(Methods.AUDIT_VERIFY, Json.object(), Audit.VerifyResult.class);
  }

  @Override
  public Audit.ArgsResult wholeArgs(String sha256) {
    return ui.call(Methods.AUDIT_ARGS, new Audit.ArgsParams(sha256), Audit.ArgsResult.class);
  }

  @Override
  public ToolResult undo(String auditId) {
    return ui.call(Methods.TOOL_UNDO, new Execute.UndoParams(auditId), ToolResult.class);
  }

  @Override
  public Set<String> undoableTools() {
    return ui.tools().stream()
        .filter(ToolDefinition::undoable)
        .map(ToolDefinition::name)
        .collect(Collectors.toUnmodifiableSet());
  }
}
