package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolDefinition;

/** A tool whose definition and "can it change anything" are fixed at construction. */
public abstract class BaseTool implements Tool {

  private final ToolDefinition definition;
  private final boolean mutates;

  protected BaseTool(ToolDefinition definition, boolean mutates) {
    this.definition = definition;
    this.mutates = mutates;
  }

  @Override
  public final ToolDefinition definition() {
    return definition;
  }

  @Override
  public final boolean mutates() {
    return mutates;
  }
}
