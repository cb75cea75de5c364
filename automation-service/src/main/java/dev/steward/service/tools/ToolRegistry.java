package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The tools the service offers, by name: the packs' fixed tools in registration order, then the
 * tools of each family (which come and go) as the family lists them at the moment of asking.
 */
public final class ToolRegistry {

  private final Map<String, Tool> tools = new LinkedHashMap<>();
  private final List<ToolFamily> families = new CopyOnWriteArrayList<>();

  public ToolRegistry register(Tool tool) {
    if (familyOf(tool.name()).isPresent() || tools.putIfAbsent(tool.name(), tool) != null) {
      throw new IllegalArgumentException("tool " + tool.name() + " is registered twice");
    }
    return this;
  }

  public ToolRegistry register(ToolFamily family) {
    for (ToolFamily f : families) {
      if (f.prefix().startsWith(family.prefix()) || family.prefix().startsWith(f.prefix())) {
        throw new IllegalArgumentException("two tool families share the prefix " + family.prefix());
      }
    }
    for (String name : tools.keySet()) {
      if (name.startsWith(family.prefix()))
        throw new IllegalArgumentException("tool " + name + " is registered twice");
    }
    families.add(family);
    return this;
  }

  public Optional<Tool> find(String name) {
    Tool fixed = tools.get(name);
    if (fixed != null) return Optional.of(fixed);
    return familyOf(name).flatMap(f -> f.find(name));
  }

  /** Whether a tool of this name can exist here, now or later (a family's prefix covers it). */
  public boolean covers(String name) {
    return tools.containsKey(name) || familyOf(name).isPresent();
  }

  private Optional<ToolFamily> familyOf(String name) {
    for (ToolFamily f : families) {
      if (name.startsWith(f.prefix())) return Optional.of(f);
    }
    return Optional.empty();
  }

  /** Every tool offered now: the fixed ones, then each family's listed ones. */
  public Collection<Tool> all() {
    if (families.isEmpty()) return tools.values();
    List<Tool> all = new ArrayList<>(tools.values());
    for (ToolFamily f : families) all.addAll(f.listed());
    return all;
  }

  public List<ToolDefinition> definitions() {
    return all().stream().map(Tool::definition).toList();
  }
}
