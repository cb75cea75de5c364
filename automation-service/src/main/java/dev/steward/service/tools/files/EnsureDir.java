package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.FileErrors;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolDefinitions;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;

/** {@code files.ensure_dir}: makes sure a folder exists, creating missing parents. */
public final class EnsureDir extends SinglePathTool {

  private static final ToolDefinition DEFINITION =
      ToolDefinitions.load(EnsureDir.class, "files.ensure_dir.json");

  public EnsureDir() {
    super(DEFINITION, Access.WRITE);
  }

  /** No file in the way of a folder to be made. */
  @Override
  public void checkNow(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    try {
      Folders.check(path, true);
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
  }

  @Override
  public JsonNode run(JsonNode args, ToolContext ctx) throws ToolFailure {
    ResolvedPath path = ctx.path("/path");
    try {
      boolean created = Folders.ensure(path, true);
      ObjectNode result = Json.object();
      result.put("path", path.real().toString());
      result.put("created", created);
      return result;
    } catch (IOException e) {
      throw FileErrors.of(e, path.requested());
    }
  }

  @Override
  public String summarize(JsonNode args, JsonNode value) {
    return value.path("created").asBoolean() ? "created" : "already there";
  }
}
