package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.Fingerprint;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;

/**
 * {@code files.move}: moves or renames a file or folder inside the allowed folders. Replacing an
 * existing target is destructive (a token), and the replaced target is kept for undo.
 */
public final class MoveFile extends BaseTool {

  private static final String REPLACED = "replaced";

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(MoveFile.class, "files.move.json");

  public MoveFile() {
    super(DEFINITION);
  }

  @Override
  public List<PathUse> paths(JsonNode args) {
    return List.of(
        new PathUse("/from", args.path("from").asText(), Access.REMOVE),
        new PathUse(
            "/to",
            args.path("to").asText(),
            args.path("overwrite").asBoolean(false) ? Access.REMOVE : Access.WRITE));
  }

  /**
   * A file moved out of strangers' reach (Downloads) is theirs still: moved, it would be read after
   * as the user's own. The conversation that moves it counts as having taken it in.
   */
  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    return strangers(ctx).map(s -> "a file moved from " + s);
  }

  /** The strangers' place the moved path is, or holds. */
  private static Optional<Path> strangers(ToolContext ctx) {
    Path from = ctx.path("/from").real();
    return ctx.scope().fromStrangers(from) ? Optional.of(from) : ctx.scope().strangersBelow(from);
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    return exists(ctx.path("/to"));
  }

  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath from = ctx.path("/from");
    ResolvedPath to = ctx.path("/to");
    checkPlaces(from, to);
    try (SafeFs.Dir src = SafeFs.openParent(from)) {
      if (SafeFs.attributes(src.stream(), src.name()).isEmpty()) throw missing(from);
    } catch (NoSuchFileException e) {
      throw missing(from);
    } catch (IOException e) {
      throw FileErrors.of(e, from.requested());
    }
    try (SafeFs.Dir dst = SafeFs.openParent(to)) {
      boolean there = SafeFs.attributes(dst.stream(), dst.name()).isPresent();
      if (there && !args.path("overwrite").asBoolean(false)) throw taken(to);
    } catch (NoSuchFileException e) {
      throw new ToolFailure(
          ToolErrorCodes.NOT_FOUND,
          "the folder of \"" + to.requested() + "\" does not exist (files.ensure_dir makes it)",
          "/to",
          null);
    } catch (IOException e) {
      throw FileErrors.of(e, to.requested());
    }
  }

  /** Neither an allowed folder itself, nor a folder into itself. */
  private static void checkPlaces(ResolvedPath from, ResolvedPath to) throws ToolFailure {
    if (from.isRoot() || to.isRoot()) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "an allowed folder itself cannot be moved or replaced",
          from.isRoot() ? "/from" : "/to",
          null);
    }
    if (to.real().startsWith(from.real())) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "cannot move a folder into itself", "/to", null);
    }
  }

  private static ToolFailure missing(ResolvedPath from) {
    return new ToolFailure(
        ToolErrorCodes.NOT_FOUND, "\"" + from.requested() + "\" does not exist", "/from", null);
  }

  private static ToolFailure taken(ResolvedPath to) {
    return new ToolFailure(
        ToolErrorCodes.ALREADY_EXISTS,
        "\"" + to.requested() + "\" exists; pass overwrite: true to replace it",
        "/to",
        null);
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ObjectNode p = Json.object();
    p.put("operation", "move");
    p.put("path", ctx.path("/from").real().toString());
    p.put("to", ctx.path("/to").real().toString());
    p.put("overwrites", exists(ctx.path("/to")));
    return Optional.of(p);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath from = ctx.path("/from");
    ResolvedPath to = ctx.path("/to");
    boolean overwrite = args.path("overwrite").asBoolean(false);
    // The look again, for a call that came with its token and was not looked at: its failures
    // name the argument they are about; the move below checks once more on what it holds open.
    checkNow(args, ctx);
    Optional<Path> fromStrangers = strangers(ctx);
    boolean overwritten;
    try (SafeFs.Dir src = SafeFs.openParent(from);
        SafeFs.Dir dst = SafeFs.openParent(to)) {
      if (SafeFs.attributes(src.stream(), src.name()).isEmpty()) throw missing(from);
      Optional<BasicFileAttributes> target = SafeFs.attributes(dst.stream(), dst.name());
      overwritten = target.isPresent();
      if (overwritten && !overwrite) throw taken(to);
      if (overwritten && !ctx.approvedDestructive()) {
        throw new ToolFailure(
            ToolErrorCodes.ALREADY_EXISTS,
            "\"" + to.requested() + "\" appeared after the check; replacing it needs confirmation",
            "/to",
            null);
      }
      if (overwritten) {
        try (SecureDirectoryStream<Path> stash = SafeFs.openOwn(ctx.undo().folder())) {
          SafeFs.move(dst.stream(), dst.name(), stash, Path.of(REPLACED));
        }
      }
      SafeFs.move(src.stream(), src.name(), dst.stream(), dst.name());
      // A stranger's file stays one where it now lies, for every conversation that reads it.
      fromStrangers.ifPresent(s -> Provenance.markMoved(to.real(), s));
      ctx.undo()
          .save(new UndoRecord(
              name(),
              UndoRecord.MOVE,
              List.of(new UndoRecord.Item(
                  from.real().toString(),
                  to.real().toString(),
                  overwritten ? REPLACED : null,
                  Fingerprint.of(to.real()))),
              false));
    } catch (IOException e) {
      throw FileErrors.of(e, from.requested());
    }
    ObjectNode result = Json.object();
    result.put("from", from.real().toString());
    result.put("to", to.real().toString());
    result.put("overwritten", overwritten);
    return result;
  }

  private static boolean exists(ResolvedPath p) {
    if (p.isRoot()) return true;
    try (SafeFs.Dir dir = SafeFs.openParent(p)) {
      return SafeFs.attributes(dir.stream(), dir.name()).isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return value.path("overwritten").asBoolean() ? "moved, replacing the target" : "moved";
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    return FileUndo.undo(record, ctx);
  }
}
