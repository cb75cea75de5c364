package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolDefinition;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The tools the service offers, by name, in registration order. */
public final class ToolRegistry {

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  public ToolRegistry register(Tool tool) {
    if (tools.putIfAbsent(tool.name(), tool) != null) {
      throw new IllegalArgumentException("tool " + tool.name() + " is registered twice");
    }
    return this;
  }

  public Optional<Tool> find(String name) {
    return Optional.ofNullable(tools.get(name));
  }

  public Collection<Tool> all() {
    return tools.values();
  }

  public List<ToolDefinition> definitions() {
    return tools.values().stream().map(Tool::definition).toList();
  }
}
