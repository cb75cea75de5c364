package dev.steward.service.tools;

import java.util.List;
import java.util.Optional;

/**
 * Tools that come and go while the service runs (an external MCP server's), all named under one
 * prefix. The registry asks the family at each call, so what it answers is always current.
 */
public interface ToolFamily {

  /** What every tool name of this family starts with, e.g. {@code mcp.}. */
  String prefix();

  /** The tools to offer now (a tool the user has not accepted, or turned off, is not among them). */
  List<Tool> listed();

  /**
   * The tool of this name, also when it is not listed: a call of it then gets its {@link
   * Tool#unavailable} reason rather than "unknown tool".
   */
  Optional<Tool> find(String name);
}
