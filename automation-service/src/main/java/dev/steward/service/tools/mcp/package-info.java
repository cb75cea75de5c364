/**
 * The external MCP servers the user configured ({@code mcp_servers} in the policy, SPEC §12),
 * offered as tools {@code mcp.<server>.<tool>} behind Steward's gate: started as children of the
 * service (or reached over Streamable HTTP), their tools rated by the user, their descriptions
 * pinned, their results untrusted.
 */
@NullMarked
package dev.steward.service.tools.mcp;

import org.jspecify.annotations.NullMarked;
