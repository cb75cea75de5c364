package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.Schemas;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.util.List;

/** {@code files.list_dir}: a folder's entries, optionally recursive; links are listed, not followed. */
public final class ListDir extends SinglePathTool {

  static final int DEFAULT_MAX_ENTRIES = 1000;
  static final int DEFAULT_MAX_DEPTH = 16;
  /** The entries stop short of the result limit, leaving room for the rest of the value. */
  static final long MAX_ENTRY_BYTES = MAX_RESULT_BYTES - 4096;

  private static final ToolDefinition DEFINITION =
      new ToolDefinition(
          "files.list_dir",
          "List the entries of a folder (name, type, size, modified). Set recursive to include sub-folders.",
          Schemas.parse(
              "{'$schema':'" + Schemas.DIALECT + "','type':'object','properties':{"
                  + "'path':{'type':'string','minLength':1,'maxLength':16384,'description':'The folder, e.g. ~/Steward'},"
                  + "'recursive':{'type':'boolean','default':false},"
                  + "'include_hidden':{'type':'boolean','default':false,'description':'Include names starting with a dot'},"
                  + "'max_depth':{'type':'integer','minimum':1,'maximum':64,'default':16},"
                  + "'max_entries':{'type':'integer','minimum':1,'maximum':100000,'default':1000}},"
                  + "'required':['path'],'additionalProperties':false}"),
          Schemas.parse(
              "{'type':'object','properties':{'entries':{'type':'array','items':{'type':'object','properties':{"
                  + "'path':{'type':'string'},'name':{'type':'string'},'type':{'enum':['file','directory','symlink']},"
                  + "'size':{'type':'integer'},'modified':{'type':'string','format':'date-time'}}}},"
                  + "'truncated':{'type':'boolean'},'stopped_because':{'enum':['max_entries','max_bytes']}},"
                  + "'required':['entries','truncated']}"),
          Risk.LOW,
          Confirmation.NEVER,
          List.of(ScopeKind.PATHS));

  public ListDir() {
    super(DEFINITION, false, Access.READ);
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath dir = ctx.path("/path");
    boolean recursive = args.path("recursive").asBoolean(false);
    TreeListing.Settings settings = new TreeListing.Settings(ctx.scope(), args.path("include_hidden").asBoolean(false),
        recursive ? args.path("max_depth").asInt(DEFAULT_MAX_DEPTH) : 1, args.path("max_entries").asInt(DEFAULT_MAX_ENTRIES), MAX_ENTRY_BYTES);
    TreeListing.Result listing;
    try {
      listing = TreeListing.list(dir, settings);
    } catch (java.nio.file.NotDirectoryException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "\"" + dir.requested() + "\" is a file, not a folder", "/path", null);
    } catch (IOException e) {
      throw FileErrors.of(e, dir.requested());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the listing was cancelled");
    }
    ObjectNode result = Json.object();
    result.putPOJO("entries", new Entries.Listed(listing.json(), listing.count()));
    result.put("truncated", listing.truncated());
    if (listing.truncated()) result.put("stopped_because", listing.stoppedBecause());
    return result;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return Entries.count(value.path("entries")) + " entries"
        + (value.path("truncated").asBoolean() ? " (stopped: " + value.path("stopped_because").asText("max_entries") + ")" : "");
  }
}
