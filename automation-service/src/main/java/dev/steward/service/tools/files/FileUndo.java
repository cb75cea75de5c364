package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.undo.Fingerprint;
import dev.steward.service.undo.UndoRecord;
import dev.steward.service.undo.UndoStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.Optional;

/**
 * Puts back what a file call replaced ({@code tool.undo}). Every path is checked against today's
 * scope, and an undo is refused — with nothing changed — when a path no longer holds what the call
 * left there: the user's later work is never silently clobbered.
 */
public final class FileUndo {

  private FileUndo() {}

  public static JsonNode undo(long auditId, UndoStore store, PathScope scope) throws ToolFailure {
    UndoRecord record;
    try {
      Optional<UndoRecord> found = store.load(auditId);
      if (found.isEmpty()) {
        throw new ToolFailure(ToolErrorCodes.NOT_FOUND, "audit row " + auditId + " has nothing to undo (or its undo data expired)", "/audit_id", null);
      }
      record = found.get();
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "cannot read the undo data of row " + auditId + ": " + e.getMessage());
    }
    if (record.undone()) {
      throw new ToolFailure(ToolErrorCodes.ALREADY_EXISTS, "audit row " + auditId + " was already undone", "/audit_id", null);
    }
    ArrayNode restored = Json.mapper().createArrayNode();
    try {
      for (UndoRecord.Item item : record.items()) {
        switch (record.kind()) {
          case UndoRecord.WRITE -> restoreWrite(auditId, store, scope, item);
          case UndoRecord.MOVE -> restoreMove(auditId, store, scope, item);
          case UndoRecord.DELETE -> restoreDelete(auditId, store, scope, item);
          default -> throw new ToolFailure(ToolErrorCodes.INTERNAL, "unknown undo kind " + record.kind());
        }
        restored.add(item.original());
      }
      store.save(auditId, record.asUndone());
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "the undo failed: " + e.getMessage());
    }
    ObjectNode result = Json.object();
    result.put("audit_id", Long.toString(auditId));
    result.put("tool", record.tool());
    result.set("restored", restored);
    return result;
  }

  private static void restoreWrite(long id, UndoStore store, PathScope scope, UndoRecord.Item item) throws ToolFailure, IOException {
    ResolvedPath path = resolve(scope, item.original());
    unchanged(path.real(), item.after(), item.original());
    byte[] old = Files.readAllBytes(store.stashPath(id, item.stash()));
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      SafeFs.writeAtomically(dir, old, false);
    }
  }

  private static void restoreMove(long id, UndoStore store, PathScope scope, UndoRecord.Item item) throws ToolFailure, IOException {
    ResolvedPath from = resolve(scope, item.original());
    ResolvedPath to = resolve(scope, item.movedTo());
    unchanged(to.real(), item.after(), item.movedTo());
    if (!Fingerprint.ABSENT.equals(Fingerprint.of(from.real()))) {
      throw new ToolFailure(ToolErrorCodes.ALREADY_EXISTS, "\"" + item.original() + "\" exists again; not undone, nothing changed", "/audit_id", null);
    }
    try (SafeFs.Dir src = SafeFs.openParent(to); SafeFs.Dir dst = SafeFs.openParent(from)) {
      SafeFs.move(src.stream(), src.name(), dst.stream(), dst.name());
      if (item.stash() != null) {
        try (SecureDirectoryStream<Path> stash = SafeFs.openOwn(store.stashPath(id, ""))) {
          SafeFs.move(stash, Path.of(item.stash()), src.stream(), src.name());
        }
      }
    }
  }

  private static void restoreDelete(long id, UndoStore store, PathScope scope, UndoRecord.Item item) throws ToolFailure, IOException {
    ResolvedPath path = resolve(scope, item.original());
    if (!Fingerprint.ABSENT.equals(Fingerprint.of(path.real()))) {
      throw new ToolFailure(ToolErrorCodes.ALREADY_EXISTS, "\"" + item.original() + "\" exists again; not undone, nothing changed", "/audit_id", null);
    }
    try (SafeFs.Dir dst = SafeFs.openParent(path); SecureDirectoryStream<Path> stash = SafeFs.openOwn(store.stashPath(id, ""))) {
      SafeFs.move(stash, Path.of(item.stash()), dst.stream(), dst.name());
    }
  }

  private static ResolvedPath resolve(PathScope scope, String real) throws ToolFailure {
    try {
      return scope.resolve(real, Access.WRITE);
    } catch (ScopeDenied e) {
      throw new ToolFailure(ToolErrorCodes.SCOPE_DENIED, "cannot undo: " + e.getMessage(), "/audit_id", null);
    }
  }

  private static void unchanged(Path real, String expected, String shown) throws ToolFailure, IOException {
    if (!Fingerprint.of(real).equals(expected)) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR,
          "\"" + shown + "\" has changed since that call; not undone, nothing changed", "/audit_id", null);
    }
  }
}
