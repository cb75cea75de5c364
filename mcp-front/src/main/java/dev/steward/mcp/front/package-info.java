/**
 * Steward's tools as an MCP server's tools, and each MCP call as a call through the gate: shared
 * by the stdio bridge ({@code steward mcp}) and the service's Streamable HTTP endpoint ({@code
 * /mcp}).
 */
@NullMarked
package dev.steward.mcp.front;

import org.jspecify.annotations.NullMarked;
