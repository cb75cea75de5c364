package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.tools.Schemas;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.util.List;

/** {@code files.ensure_dir}: makes sure a folder exists, creating missing parents. */
public final class EnsureDir extends SinglePathTool {

  private static final ToolDefinition DEFINITION =
      new ToolDefinition(
          "files.ensure_dir",
          "Make sure a folder exists, creating it and any missing parent folders.",
          Schemas.parse(
              "{'$schema':'" + Schemas.DIALECT + "','type':'object','properties':{"
                  + "'path':{'type':'string','minLength':1,'maxLength':16384}},"
                  + "'required':['path'],'additionalProperties':false}"),
          Schemas.parse(
              "{'type':'object','properties':{'path':{'type':'string'},'created':{'type':'boolean'}},"
                  + "'required':['path','created']}"),
          Risk.LOW,
          Confirmation.NEVER,
          List.of(ScopeKind.PATHS));

  public EnsureDir() {
    super(DEFINITION, true, Access.WRITE);
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
