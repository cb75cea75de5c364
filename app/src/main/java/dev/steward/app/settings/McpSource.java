package dev.steward.app.settings;

import dev.steward.protocol.method.Mcp;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The service's external MCP servers as the window reviews them (ui role). */
public interface McpSource {

  Mcp.ServersResult servers();

  /** Accepts tools as the user saw them: each by the server's name and the hash shown. */
  Mcp.AcceptResult accept(String server, List<Mcp.Seen> tools);

  /** Starts the user's sign-in to a server at a URL: the address to open in the browser. */
  String signIn(String server, @Nullable String clientId, @Nullable String clientSecret);

  /** Forgets the server's tokens. */
  void signOut(String server);

  /** Sets one kept value of a server (null removes it); answers the names kept now. */
  List<String> setValue(String server, String name, @Nullable String value);
}
