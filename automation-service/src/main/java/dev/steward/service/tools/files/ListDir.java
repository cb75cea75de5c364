package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.util.Counted;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
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
        MAX_ENTRY_BYTES,
        true);
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
    // A name listed is shown: one a stranger chose (a download, a file written after untrusted
    // content) taints, as its content would.
    if (listing.strangers() != null) ctx.taint().accept(listing.strangers());
    ObjectNode result = Json.object();
    result.putPOJO("entries", new Entries.Listed(listing.json(), listing.count()));
    result.put("truncated", listing.truncated());
    if (listing.truncated()) result.put("stopped_because", listing.stoppedBecause());
    return result;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Counted.of(Entries.count(value.path("entries")), "entry", "entries")
        + (value.path("truncated").asBoolean()
            ? " (" + StopReason.inWords(value.path("stopped_because").asText("max_entries")) + ")"
            : "");
  }
}
