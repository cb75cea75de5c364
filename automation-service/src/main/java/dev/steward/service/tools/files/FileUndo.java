package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.PathScope;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.Fingerprint;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Puts back what a file call replaced ({@code tool.undo}). Every path is checked against today's
 * scope, and an undo is refused — with nothing changed — when a path no longer holds what the call
 * left there: the user's later work is never silently clobbered.
 */
final class FileUndo {

  private FileUndo() {}

  /** Restores every item of the record; answers the paths put back. */
  static JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    ArrayNode restored = Json.mapper().createArrayNode();
    try {
      for (UndoRecord.Item item : record.items()) {
        switch (record.kind()) {
          case UndoRecord.WRITE -> restoreWrite(ctx, item);
          case UndoRecord.MOVE -> restoreMove(ctx, item);
          case UndoRecord.DELETE -> restoreDelete(ctx, item);
          default ->
            throw new ToolFailure(ToolErrorCodes.INTERNAL, "unknown undo kind " + record.kind());
        }
        restored.add(item.original());
      }
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "the undo failed: " + e.getMessage());
    }
    return restored;
  }

  private static void restoreWrite(UndoContext ctx, UndoRecord.Item item)
      throws ToolFailure, IOException {
    ResolvedPath path = resolve(ctx.scope(), item.original());
    unchanged(path.real(), kept(item.after(), "after"), item.original());
    Path stashed = ctx.stashed(kept(item.stash(), "stash"));
    byte[] old = Files.readAllBytes(stashed);
    // A stranger's file put back is a stranger's still.
    SafeFs.Mark mark = Provenance.marked(stashed)
        ? new SafeFs.Mark(path.real(), "a stranger's file, put back")
        : null;
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      SafeFs.writeAtomically(dir, old, false, mark);
    }
  }

  private static void restoreMove(UndoContext ctx, UndoRecord.Item item)
      throws ToolFailure, IOException {
    ResolvedPath from = resolve(ctx.scope(), item.original());
    String movedTo = kept(item.movedTo(), "moved_to");
    ResolvedPath to = resolve(ctx.scope(), movedTo);
    unchanged(to.real(), kept(item.after(), "after"), movedTo);
    if (!Fingerprint.ABSENT.equals(Fingerprint.of(from.real()))) {
      throw new ToolFailure(
          ToolErrorCodes.ALREADY_EXISTS,
          "\"" + item.original() + "\" exists again; not undone, nothing changed",
          "/audit_id",
          null);
    }
    try (SafeFs.Dir src = SafeFs.openParent(to);
        SafeFs.Dir dst = SafeFs.openParent(from)) {
      SafeFs.move(src.stream(), src.name(), dst.stream(), dst.name());
      if (item.stash() != null) {
        try (SecureDirectoryStream<Path> stash = SafeFs.openOwn(ctx.stash())) {
          SafeFs.move(stash, Path.of(item.stash()), src.stream(), src.name());
        }
      }
    }
  }

  private static void restoreDelete(UndoContext ctx, UndoRecord.Item item)
      throws ToolFailure, IOException {
    ResolvedPath path = resolve(ctx.scope(), item.original());
    if (!Fingerprint.ABSENT.equals(Fingerprint.of(path.real()))) {
      throw new ToolFailure(
          ToolErrorCodes.ALREADY_EXISTS,
          "\"" + item.original() + "\" exists again; not undone, nothing changed",
          "/audit_id",
          null);
    }
    try (SafeFs.Dir dst = SafeFs.openParent(path);
        SecureDirectoryStream<Path> stash = SafeFs.openOwn(ctx.stash())) {
      SafeFs.move(stash, Path.of(item.stash()), dst.stream(), dst.name());
    }
  }

  /** A part of the record its kind always has; a record without it was not written by this tool. */
  private static String kept(@org.jspecify.annotations.Nullable String value, String name)
      throws ToolFailure {
    if (value == null)
      throw new ToolFailure(
          ToolErrorCodes.INTERNAL, "the undo record has no " + name + "; nothing changed");
    return value;
  }

  private static ResolvedPath resolve(PathScope scope, String real) throws ToolFailure {
    try {
      return scope.resolve(real, Access.REMOVE);
    } catch (ScopeDenied e) {
      throw new ToolFailure(
          ToolErrorCodes.SCOPE_DENIED, "cannot undo: " + e.getMessage(), "/audit_id", null);
    }
  }

  private static void unchanged(Path real, String expected, String shown)
      throws ToolFailure, IOException {
    if (!Fingerprint.of(real).equals(expected)) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + shown + "\" has changed since that call; not undone, nothing changed",
          "/audit_id",
          null);
    }
  }
}
