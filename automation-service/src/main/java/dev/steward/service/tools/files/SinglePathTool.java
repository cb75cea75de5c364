package dev.steward.service.tools.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.service.scope.Access;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import java.util.List;

/** A file tool whose one path argument is {@code path}: the definition, the access it needs. */
abstract class SinglePathTool implements Tool {

  private final ToolDefinition definition;
  private final boolean mutates;
  private final Access access;

  SinglePathTool(ToolDefinition definition, boolean mutates, Access access) {
    this.definition = definition;
    this.mutates = mutates;
    this.access = access;
  }

  @Override
  public final ToolDefinition definition() {
    return definition;
  }

  @Override
  public final boolean mutates() {
    return mutates;
  }

  @Override
  public final List<PathUse> paths(JsonNode args) {
    return List.of(new PathUse("/path", args.path("path").asText(), access));
  }
}
