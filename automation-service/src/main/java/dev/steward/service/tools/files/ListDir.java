package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.scope.SafeFs;
import dev.steward.service.tools.Schemas;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code files.list_dir}: a folder's entries, optionally recursive; links are listed, not followed. */
public final class ListDir extends SinglePathTool {

  static final int DEFAULT_MAX_ENTRIES = 1000;
  static final int DEFAULT_MAX_DEPTH = 16;

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
                  + "'truncated':{'type':'boolean'}},'required':['entries','truncated']}"),
          Risk.LOW,
          Confirmation.NEVER,
          List.of(ScopeKind.PATHS));

  public ListDir() {
    super(DEFINITION, false, Access.READ);
  }

  private record Walk(ToolContext ctx, boolean hidden, int maxDepth, int maxEntries, List<ObjectNode> out) {
    boolean full() {
      return out.size() >= maxEntries;
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath dir = ctx.path("/path");
    boolean recursive = args.path("recursive").asBoolean(false);
    int maxDepth = recursive ? args.path("max_depth").asInt(DEFAULT_MAX_DEPTH) : 1;
    int maxEntries = args.path("max_entries").asInt(DEFAULT_MAX_ENTRIES);
    Walk walk = new Walk(ctx, args.path("include_hidden").asBoolean(false), maxDepth, maxEntries, new ArrayList<>());
    boolean truncated;
    try (SecureDirectoryStream<Path> stream = SafeFs.openDir(dir)) {
      truncated = list(walk, stream, dir.real(), 1);
    } catch (java.nio.file.NotDirectoryException e) {
      throw new ToolFailure(ToolErrorCodes.EXECUTION_ERROR, "\"" + dir.requested() + "\" is a file, not a folder", "/path", null);
    } catch (IOException e) {
      throw FileErrors.of(e, dir.requested());
    }
    ObjectNode result = Json.object();
    ArrayNode entries = result.putArray("entries");
    walk.out().forEach(entries::add);
    result.put("truncated", truncated);
    return result;
  }

  /** Lists one folder, sorted by name, descending depth-first; answers whether it stopped early. */
  private boolean list(Walk walk, SecureDirectoryStream<Path> stream, Path real, int depth) throws IOException, ToolFailure {
    List<Path> names = new ArrayList<>();
    for (Path name : stream) {
      names.add(name.getFileName());
    }
    names.sort(null);
    for (Path name : names) {
      ToolContext.checkCancelled();
      if (!walk.hidden() && name.toString().startsWith(".")) continue;
      Path child = real.resolve(name.toString());
      if (walk.ctx().scope().isDeniedChild(child)) continue;
      Optional<BasicFileAttributes> attrs = SafeFs.attributes(stream, name);
      if (attrs.isEmpty()) continue; // removed while we listed
      if (walk.full()) return true;
      walk.out().add(Entries.entry(child, attrs.get()));
      if (attrs.get().isDirectory() && depth < walk.maxDepth()) {
        try (SecureDirectoryStream<Path> sub = stream.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
          if (list(walk, sub, child, depth + 1)) return true;
        } catch (java.nio.file.AccessDeniedException e) {
          // an unreadable sub-folder is listed but not entered
        }
      }
    }
    return false;
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return value.path("entries").size() + " entries" + (value.path("truncated").asBoolean() ? " (truncated)" : "");
  }
}
