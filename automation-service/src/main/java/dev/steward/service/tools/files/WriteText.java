package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.undo.UndoRecord;
import java.io.IOException;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code files.write_text}: writes a whole text file atomically. A new file needs no token; an
 * overwrite is destructive, so the gate asks for one.
 */
public final class WriteText extends SinglePathTool {

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(WriteText.class.getName());

  static final int MAX_BYTES = 16 << 20;
  private static final String OLD = "old";

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(WriteText.class, "files.write_text.json");

  public WriteText() {
    super(DEFINITION, Access.WRITE);
  }

  @Override
  public Set<String> sensitiveArgs() {
    return Set.of("content");
  }

  @Override
  public boolean destructive(JsonNode args, ToolContext ctx) {
    // A folder is not overwritten by a write (the write fails): a call checked on one is not
    // approved to replace a file that takes its place before the write.
    return existing(ctx.path("/path")).filter(a -> !a.isDirectory()).isPresent();
  }

  /**
   * Before a dialog shows the text: an encoding that exists and can write every character of it
   * (else characters it cannot hold would be written as "?", unlike the diff the user read), in
   * no more than {@link #MAX_BYTES}.
   */
  @Override
  public void checkArgs(JsonNode args) throws ToolFailure {
    Charset charset = charset(args.path("encoding").asText("utf-8"));
    int size;
    try {
      if (!charset.canEncode()) throw new CharacterCodingException();
      size = charset
          .newEncoder()
          .encode(CharBuffer.wrap(args.path("content").asText()))
          .remaining();
    } catch (CharacterCodingException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "the content has characters that " + charset.name()
              + " cannot hold; write it in utf-8, or without them",
          "/content",
          null);
    }
    if (size > MAX_BYTES) {
      throw new ToolFailure(
          ToolErrorCodes.TOO_LARGE,
          "the content is " + size + " bytes; the limit is " + MAX_BYTES,
          "/content",
          null);
    }
  }

  /** Not an allowed folder itself, nor a folder; its folder there unless the call makes it. */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    checkNotRoot(path);
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      Optional<BasicFileAttributes> before = SafeFs.attributes(dir.stream(), dir.name());
      if (before.isPresent() && before.get().isDirectory()) throw isFolder(path);
    } catch (NoSuchFileException e) {
      if (!args.path("create_dirs").asBoolean(false)) throw noFolder(path);
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
  }

  private static void checkNotRoot(ResolvedPath path) throws ToolFailure {
    if (path.isRoot()) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + path.requested() + "\" is an allowed folder itself, not a file",
          "/path",
          null);
    }
  }

  private static ToolFailure isFolder(ResolvedPath path) {
    return new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR, "\"" + path.requested() + "\" is a folder", "/path", null);
  }

  private static ToolFailure noFolder(ResolvedPath path) {
    return new ToolFailure(
        ToolErrorCodes.NOT_FOUND,
        "the folder of \"" + path.requested()
            + "\" does not exist; pass create_dirs: true to create it",
        "/path",
        null);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    checkNotRoot(path);
    byte[] bytes = encode(args.path("content").asText(), args.path("encoding").asText("utf-8"));
    try {
      if (args.path("create_dirs").asBoolean(false)) {
        Folders.ensure(path, false);
      }
      boolean overwritten;
      try (SafeFs.Dir dir = SafeFs.openParent(path)) {
        Optional<BasicFileAttributes> before = SafeFs.attributes(dir.stream(), dir.name());
        if (before.isPresent() && before.get().isDirectory()) throw isFolder(path);
        overwritten = before.isPresent();
        if (overwritten && !ctx.approvedDestructive()) {
          // It appeared after the gate decided this was a new file: overwriting needs approval.
          throw new ToolFailure(
              ToolErrorCodes.ALREADY_EXISTS,
              "\"" + path.requested()
                  + "\" was created after the check; overwriting it needs confirmation",
              "/path",
              null);
        }
        // What a conversation that took in untrusted content writes becomes a stranger's: else the
        // next conversation would read the injection clean. A clean conversation's rewrite holds
        // nothing of a stranger's file it replaces (reading it would have tainted it); the copy
        // kept for an undo keeps the mark, so that one put back is a stranger's still.
        boolean strangers = overwritten && Provenance.marked(path.real());
        if (overwritten) {
          // Keep what is replaced before replacing it: no undo copy, no overwrite.
          Path old = ctx.undo().folder().resolve(OLD);
          SafeFs.copyOut(dir, old);
          if (strangers) Provenance.markMade(old, "a stranger's file, replaced by a write");
        }
        SafeFs.Mark mark = ctx.tainted()
            ? new SafeFs.Mark(
                path.real(), "written in a conversation that took in untrusted content")
            : null;
        if (!SafeFs.writeAtomically(dir, bytes, !ctx.approvedDestructive(), mark))
          LOG.warning(() -> "a file written after untrusted content could not be marked (its file"
              + " system keeps no extended attributes): " + path.real());
        if (overwritten) {
          ctx.undo()
              .save(new UndoRecord(
                  name(),
                  UndoRecord.WRITE,
                  List.of(new UndoRecord.Item(
                      path.real().toString(), null, OLD, "file:" + CanonicalJson.sha256Hex(bytes))),
                  false));
        }
      }
      ObjectNode result = Json.object();
      result.put("path", path.real().toString());
      result.put("size", bytes.length);
      result.put("overwritten", overwritten);
      return result;
    } catch (NoSuchFileException e) {
      throw noFolder(path);
    } catch (FileAlreadyExistsException e) {
      throw new ToolFailure(
          ToolErrorCodes.ALREADY_EXISTS,
          "\"" + path.requested()
              + "\" was created after the check; overwriting it needs confirmation",
          "/path",
          null);
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
  }

  @Override
  public Optional<JsonNode> preview(JsonNode args, ToolContext ctx) {
    ResolvedPath path = ctx.path("/path");
    ObjectNode p = Json.object();
    p.put("operation", "write");
    p.put("path", path.real().toString());
    Optional<BasicFileAttributes> before = existing(path);
    p.put("overwrites", before.filter(a -> !a.isDirectory()).isPresent());
    if (ctx.forPerson() && before.isPresent() && before.get().isRegularFile()) {
      try (SafeFs.Dir dir = SafeFs.openParent(path)) {
        p.put(
            "diff",
            TextDiff.ofWrite(
                path.real().toString(),
                SafeFs.readBounded(dir, TextDiff.MAX_INPUT_BYTES),
                args.path("content").asText(),
                charset(args.path("encoding").asText("utf-8"))));
      } catch (IOException e) {
        p.put("diff_unavailable", "cannot read the current file: " + e.getMessage());
      } catch (ToolFailure e) {
        p.put("diff_unavailable", e.getMessage());
      }
    }
    return Optional.of(p);
  }

  private static Optional<BasicFileAttributes> existing(ResolvedPath path) {
    if (path.isRoot()) return Optional.empty();
    try (SafeFs.Dir dir = SafeFs.openParent(path)) {
      return SafeFs.attributes(dir.stream(), dir.name());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static byte[] encode(String content, String encoding) throws ToolFailure {
    return content.getBytes(charset(encoding));
  }

  private static Charset charset(String encoding) throws ToolFailure {
    try {
      return Charset.forName(encoding);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw new ToolFailure(
          ToolErrorCodes.VALIDATION_ERROR,
          "unknown encoding \"" + encoding + "\"",
          "/encoding",
          null);
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return (value.path("overwritten").asBoolean() ? "overwrote " : "created ")
        + Counted.of(value.path("size").asLong(), "byte", "bytes");
  }

  @Override
  public JsonNode undo(UndoRecord record, UndoContext ctx) throws ToolFailure {
    return FileUndo.undo(record, ctx);
  }
}
