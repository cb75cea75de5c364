package dev.steward.app.audit;

import dev.steward.protocol.method.Audit;
import dev.steward.protocol.tool.ToolResult;
import java.util.Set;

/** The audit log as the panel needs it (the ui role's {@code audit.*} and {@code tool.undo}). */
public interface AuditSource {

  Audit.QueryResult query(Audit.QueryParams params);

  Audit.VerifyResult verify();

  /** The whole arguments a cut preview names by hash ({@code audit.args}), checked by the service. */
  Audit.ArgsResult wholeArgs(String sha256);

  ToolResult undo(String auditId);

  /** The tools whose calls {@code tool.undo} can put back (the tool contract's {@code undoable}). */
  Set<String> undoableTools();
}
