package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.Fingerprint;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;

/**
 * {@code files.delete} (high risk, always confirmed): moves the file or folder into the undo area
 * instead of destroying it. If it cannot be kept (another file system), nothing is deleted.
 */
public final class DeleteFile extends SinglePathTool {

  private static final String PAYLOAD = "payload";

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(DeleteFile.class, "files.delete.json");

  public DeleteFile() {
    super(DEFINITION, Access.REMOVE);
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    return true;
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ObjectNode p = Json.object();
    p.put("operation", "delete");
    p.put("path", ctx.path("/path").real().toString());
    p.put("recursive", args.path("recursive").asBoolean(false));
    p.put("undoable", true);
    return Optional.of(p);
  }

  @Override
  public boolean rechecksTakenFolders() {
    return true; // checkTaken
  }

  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    try (SafeFs.Dir dir = openDeletable(path)) {
      checkDeletable(args, path, dir);
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    try (SafeFs.Dir dir = openDeletable(path)) {
      checkDeletable(args, path, dir);
      Path folder = ctx.undo().folder();
      List<UndoRecord.Item> items =
          List.of(new UndoRecord.Item(path.real().toString(), null, PAYLOAD, Fingerprint.ABSENT));
      try (SecureDirectoryStream<Path> stash = SafeFs.openOwn(folder)) {
        SafeFs.move(dir.stream(), dir.name(), stash, Path.of(PAYLOAD));
        // Kept for undo before anything else can fail: what was taken is never left without it.
        keep(ctx, new UndoRecord(name(), UndoRecord.DELETE, items, false));
        checkTaken(ctx, path, dir, stash, folder.resolve(PAYLOAD), items);
      }
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
    ObjectNode result = Json.object();
    result.putArray("deleted").add(path.real().toString());
    return result;
  }

  /**
   * A folder deleted on the user's approval is looked at again once it is in the undo area, where
   * no tool reaches: the walks that checked it before could not hold it still (a file moved into a
   * part already walked went unseen), and a folder moved into the name of an approved file after
   * the last look was never walked. What was taken must be what was approved; if not, it goes back
   * where it was and nothing is deleted — or, when it cannot go back (its name taken meanwhile), it
   * stays kept for undo and the call says so.
   */
  private void checkTaken(
      ToolContext ctx,
      ResolvedPath path,
      SafeFs.Dir dir,
      SecureDirectoryStream<Path> stash,
      Path taken,
      List<UndoRecord.Item> items)
      throws IOException, ToolFailure {
    String approved = ctx.approvedStamps().get("/path");
    if (approved == null) return;
    boolean folder = Files.isDirectory(taken, LinkOption.NOFOLLOW_LINKS);
    if (FileStamp.isTree(approved) ? FileStamp.of(taken, Access.REMOVE).equals(approved) : !folder)
      return;
    boolean putBack = false;
    if (SafeFs.attributes(dir.stream(), dir.name()).isEmpty()) {
      try {
        SafeFs.move(stash, Path.of(PAYLOAD), dir.stream(), dir.name());
        putBack = true;
      } catch (IOException e) {
        // something took the name between the look and the move: it stays kept for undo
      }
    }
    if (putBack) {
      keep(ctx, new UndoRecord(name(), UndoRecord.DELETE, items, true));
      throw new ToolFailure(
          ToolErrorCodes.TOKEN_MISMATCH,
          "\"" + path.requested() + "\" is not what was approved for deleting (something was"
              + " moved into it or out of it, or it could not be read again): it was put back as"
              + " it is now, and deleting it needs approving again",
          "/path",
          null);
    }
    throw new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR,
        "\"" + path.requested() + "\" is not what was approved for deleting, and its name was"
            + " taken again meanwhile: it is kept for undo (undo restores it) rather than put back"
            + " over what is there now",
        "/path",
        null);
  }

  /** Saves the undo record even when the call's time ran out meanwhile (the interrupt waits). */
  private static void keep(ToolContext ctx, UndoRecord record) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      ctx.undo().save(record);
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }

  /** The folder that holds the path; never an allowed folder itself. */
  private static SafeFs.Dir openDeletable(ResolvedPath path) throws ToolFailure, IOException {
    if (path.isRoot()) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "an allowed folder itself cannot be deleted",
          "/path",
          null);
    }
    return SafeFs.openParent(path);
  }

  /** There, and not a folder with something in it unless the call says recursive. */
  private static void checkDeletable(JsonNode args, ResolvedPath path, SafeFs.Dir dir)
      throws ToolFailure, IOException {
    Optional<BasicFileAttributes> attrs = SafeFs.attributes(dir.stream(), dir.name());
    if (attrs.isEmpty()) {
      throw new ToolFailure(
          ToolErrorCodes.NOT_FOUND, "\"" + path.requested() + "\" does not exist", "/path", null);
    }
    if (attrs.get().isDirectory() && !args.path("recursive").asBoolean(false) && !isEmpty(dir)) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + path.requested() + "\" is a folder that is not empty; pass recursive: true",
          "/recursive",
          null);
    }
  }

  private static boolean isEmpty(SafeFs.Dir dir) throws IOException {
    try (DirectoryStream<Path> children =
        dir.stream().newDirectoryStream(dir.name(), LinkOption.NOFOLLOW_LINKS)) {
      return !children.iterator().hasNext();
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return "deleted (kept for undo)";
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    return FileUndo.undo(record, ctx);
  }
}
