package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolDefinition;

/** A tool whose definition is fixed at construction (most are read from a JSON resource beside the tool). */
public abstract class BaseTool implements Tool {

  private final ToolDefinition definition;

  protected BaseTool(ToolDefinition definition) {
    this.definition = definition;
  }

  @Override
  public final ToolDefinition definition() {
    return definition;
  }
}
