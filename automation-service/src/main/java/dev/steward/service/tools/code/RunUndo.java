package dev.steward.service.tools.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.List;
import java.util.Optional;

/**
 * Undoes a run's changes to its workspace: a file it made is removed, one it overwrote or removed
 * is put back from the copy taken before it ran. Every path is checked first, and the undo is
 * refused with nothing changed when one no longer holds what the run left there (the user's later
 * work is never clobbered) or lies outside the workspace. Paths are walked from the workspace
 * without following links, so a folder swapped for a link cannot lead the undo elsewhere.
 */
final class RunUndo {

  private RunUndo() {}

  static JsonNode undo(Path workspace, List<UndoRecord.Item> items, JsonNode modes, UndoContext ctx)
      throws ToolFailure {
    try {
      for (UndoRecord.Item item : items) {
        ResolvedPath path = inside(workspace, item.original());
        String now = current(path);
        if (!now.equals(item.after()))
          throw new ToolFailure(
              ToolErrorCodes.EXECUTION_ERROR,
              "\"" + path.relative() + "\" has changed since that run; not undone, nothing changed",
              "/audit_id",
              null);
        String kept = item.stash();
        if (kept != null && !Files.isRegularFile(ctx.stashed(kept)))
          throw new ToolFailure(
              ToolErrorCodes.EXECUTION_ERROR,
              "the copy of \"" + path.relative() + "\" is gone; not undone, nothing changed",
              "/audit_id",
              null);
      }
      ArrayNode restored = Json.mapper().createArrayNode();
      for (UndoRecord.Item item : items) {
        ResolvedPath path = inside(workspace, item.original());
        String kept = item.stash();
        if (kept == null) {
          try (SafeFs.Dir dir = SafeFs.openParent(path)) {
            dir.stream().deleteFile(dir.name());
          }
        } else {
          Path stashed = ctx.stashed(kept);
          byte[] old = Files.readAllBytes(stashed);
          // A stranger's file put back is a stranger's still.
          SafeFs.Mark mark = Provenance.marked(stashed)
              ? new SafeFs.Mark(path.real(), "a stranger's file, put back")
              : null;
          try (SafeFs.Dir dir = openParentMaking(workspace, path)) {
            SafeFs.writeAtomically(dir, old, false, mark);
            // The mode the file had, not that of whatever the run left in its place.
            int mode = modes.path(item.original()).asInt(0644) & 0777;
            dir.stream()
                .getFileAttributeView(
                    dir.name(), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setPermissions(WorkspaceSnapshot.permissions(mode));
          }
        }
        restored.add(path.relative().toString());
      }
      return restored;
    } catch (IOException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "the undo failed: " + e.getMessage());
    }
  }

  private static ResolvedPath inside(Path workspace, String original) throws ToolFailure {
    Path p = Path.of(original).normalize();
    if (!p.startsWith(workspace) || p.equals(workspace))
      throw new ToolFailure(
          ToolErrorCodes.SCOPE_DENIED,
          "\"" + original + "\" is not in the code workspace; not undone, nothing changed",
          "/audit_id",
          null);
    return new ResolvedPath(workspace.relativize(p).toString(), p, workspace);
  }

  /** What is at the path now, read without following links: its stamp, or absent. */
  private static String current(ResolvedPath path) throws IOException {
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      Optional<BasicFileAttributes> a = SafeFs.attributes(dir.stream(), dir.name());
      return a.map(WorkspaceSnapshot::stamp).orElse(WorkspaceSnapshot.ABSENT);
    } catch (NoSuchFileException e) {
      return WorkspaceSnapshot.ABSENT; // its folder went too
    }
  }

  /** Opens the folder of {@code path}, making the folders the run removed on the way. */
  private static SafeFs.Dir openParentMaking(Path workspace, ResolvedPath path) throws IOException {
    Path rel = path.relative();
    SecureDirectoryStream<Path> dir = SafeFs.openOwn(workspace);
    try {
      Path made = workspace;
      for (int i = 0; i < rel.getNameCount() - 1; i++) {
        Path name = rel.getName(i);
        made = made.resolve(name);
        if (SafeFs.attributes(dir, name).isEmpty()) Files.createDirectory(made);
        dir = SafeFs.descend(dir, name);
      }
      return new SafeFs.Dir(dir, rel.getFileName());
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e;
    }
  }
}
