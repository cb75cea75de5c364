package dev.steward.protocol.method;

import dev.steward.protocol.tool.ToolDefinition;
import java.util.List;

/** {@code tools.list}. */
public final class ToolsList {

  private ToolsList() {}

  public record Result(List<ToolDefinition> tools) {}
}
