package dev.steward.app.settings;

import dev.steward.protocol.method.Mcp;
import java.util.List;

/** The service's external MCP servers as the window reviews them (ui role). */
public interface McpSource {

  Mcp.ServersResult servers();

  /** Accepts a server's tools as described now; {@code tools} empty: all of them. */
  Mcp.AcceptResult accept(String server, List<String> tools);
}
