package dev.steward.app.agent;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.steward.protocol.tool.ToolDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service's tools as the model sees them: one {@link ToolSpecification} per definition from
 * {@code tools.list}, under a model-safe name. Calls are never run here — they go back to the
 * service's gate (the way langchain4j-mcp forwards a model's calls to a remote server).
 */
public final class RemoteTools {

  private final Map<String, ToolDefinition> byName = new LinkedHashMap<>();
  private final ToolNames names;
  private final List<ToolSpecification> specifications;

  public RemoteTools(List<ToolDefinition> definitions) {
    definitions.forEach(d -> byName.put(d.name(), d));
    this.names = new ToolNames(byName.keySet());
    this.specifications = definitions.stream()
        .map(d -> ToolSpecification.builder()
            .name(names.modelName(d.name()))
            .description(d.description() + " [risk: " + d.risk().wire() + "]")
            .parameters(SchemaConverter.toObjectSchema(d.argsSchema()))
            .build())
        .toList();
  }

  public List<ToolSpecification> specifications() {
    return specifications;
  }

  public List<ToolDefinition> definitions() {
    return List.copyOf(byName.values());
  }

  public Optional<ToolDefinition> definition(String tool) {
    return Optional.ofNullable(byName.get(tool));
  }

  /** The tool behind a name the model used, looked up in the table; empty when unknown. */
  public Optional<ToolDefinition> forModelName(String modelName) {
    return names.toolName(modelName).map(byName::get);
  }

  public String modelName(String tool) {
    return names.modelName(tool);
  }
}
