package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.scope.Access;
import dev.steward.service.tools.BaseTool;
import dev.steward.service.tools.PathUse;
import java.util.List;

/** A file tool whose one path argument is {@code path}: the definition, the access it needs. */
abstract class SinglePathTool extends BaseTool {

  private final Access access;

  SinglePathTool(ToolDefinition definition, Access access) {
    super(definition);
    this.access = access;
  }

  @Override
  public final List<PathUse> paths(JsonNode args) {
    return List.of(new PathUse("/path", args.path("path").asText(), access));
  }
}
