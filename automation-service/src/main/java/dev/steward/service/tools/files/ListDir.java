package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.Provenance;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** {@code files.list_dir}: a folder's entries, optionally recursive; links are listed, not followed. */
public final class ListDir extends SinglePathTool {

  static final int DEFAULT_MAX_ENTRIES = 1000;
  static final int DEFAULT_MAX_DEPTH = 16;
  /** The entries stop short of the result limit, leaving room for the rest of the value. */
  static final long MAX_ENTRY_BYTES = MAX_RESULT_BYTES - 4096;

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(ListDir.class, "files.list_dir.json");

  public ListDir() {
    super(DEFINITION, Access.READ);
  }

  /**
   * File names in a read-only root (Downloads) are chosen by strangers: a listing of one taints,
   * and so does a recursive listing of a folder that holds one.
   */
  @Override
  public Optional<String> taintSource(JsonNode args, ToolContext ctx) {
    ResolvedPath p = ctx.path("/path");
    if (ctx.scope().fromStrangers(p.real())) return Optional.of("file names under " + p.real());
    if (!args.path("recursive").asBoolean(false)) return Optional.empty();
    return ctx.scope().strangersBelow(p.real()).map(below -> "file names under " + below);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath dir = ctx.path("/path");
    boolean recursive = args.path("recursive").asBoolean(false);
    TreeListing.Settings settings = new TreeListing.Settings(
        ctx.scope(),
        args.path("include_hidden").asBoolean(false),
        recursive ? args.path("max_depth").asInt(DEFAULT_MAX_DEPTH) : 1,
        args.path("max_entries").asInt(DEFAULT_MAX_ENTRIES),
        MAX_ENTRY_BYTES);
    TreeListing.Result listing;
    try {
      listing = TreeListing.list(dir, settings);
    } catch (java.nio.file.NotDirectoryException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + dir.requested() + "\" is a file, not a folder",
          "/path",
          null);
    } catch (IOException e) {
      throw FileErrors.of(e, dir.requested());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the listing was cancelled");
    }
    if (settings.maxDepth() == 1) strangersNamed(dir).ifPresent(ctx.taint());
    ObjectNode result = Json.object();
    result.putPOJO("entries", new Entries.Listed(listing.json(), listing.count()));
    result.put("truncated", listing.truncated());
    if (listing.truncated()) result.put("stopped_because", listing.stoppedBecause());
    return result;
  }

  /** The most entries of a folder whose marks a listing reads (about 20 ms of them). */
  static final int MAX_MARKS_READ = 5_000;

  /**
   * A folder's names chosen by strangers: a file or folder among them marked as a stranger's (a
   * download, one written after untrusted content), whose name is theirs as much as its content.
   * Every entry of the folder is looked at, listed or not (hidden, refused, past a cap), up to
   * {@link #MAX_MARKS_READ}; a folder with more counts as holding one. Only one folder's own
   * entries: a mark is read per entry, about twice a stat, too much for a tree of thousands.
   */
  private static Optional<String> strangersNamed(ResolvedPath dir) {
    int looked = 0;
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir.real())) {
      for (Path child : children) {
        if (++looked > MAX_MARKS_READ) {
          return Optional.of(
              "file names in " + dir.real() + " (too many to look for a stranger's among them)");
        }
        if (Provenance.marked(child)) {
          return Optional.of("file names in " + dir.real() + " (a stranger's file among them)");
        }
      }
    } catch (IOException | DirectoryIteratorException e) {
      // a folder that cannot be read again shows no names to taint by
    }
    return Optional.empty();
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Entries.count(value.path("entries")) + " entries"
        + (value.path("truncated").asBoolean()
            ? " (stopped: " + value.path("stopped_because").asText("max_entries") + ")"
            : "");
  }
}
