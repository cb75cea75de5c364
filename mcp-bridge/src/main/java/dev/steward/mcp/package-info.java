/**
 * {@code steward mcp}: Steward as an MCP server (SPEC §12). MCP over stdio, through the official
 * Java SDK, forwarded to the service's gate as the {@code mcp} role: the same tools, scopes,
 * confirmation rules and audit log as the window's own agent.
 */
@NullMarked
package dev.steward.mcp;

import org.jspecify.annotations.NullMarked;
