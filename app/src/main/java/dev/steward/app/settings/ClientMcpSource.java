package dev.steward.app.settings;

import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Mcp;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@link McpSource} over the ui connection. */
public final class ClientMcpSource implements McpSource {

  private final StewardClient ui;

  public ClientMcpSource(StewardClient ui) {
    this.ui = ui;
  }

  @Override
  public Mcp.ServersResult servers() {
    return ui.call(Mcp.SERVERS, Json.object(), Mcp.ServersResult.class);
  }

  @Override
  public Mcp.AcceptResult accept(String server, List<Mcp.Seen> tools) {
    return ui.call(Mcp.ACCEPT, new Mcp.AcceptParams(server, tools), Mcp.AcceptResult.class);
  }

  @Override
  public String signIn(String server, @Nullable String clientId, @Nullable String clientSecret) {
    return ui.call(
            Mcp.SIGN_IN,
            new Mcp.SignInParams(server, clientId, clientSecret),
            Mcp.SignInResult.class)
        .authorizationUrl();
  }

  @Override
  public void signOut(String server) {
    ui.call(Mcp.SIGN_OUT, new Mcp.SignOutParams(server), Mcp.SignOutResult.class);
  }

  @Override
  public List<String> setValue(String server, String name, @Nullable String value) {
    return ui.call(
            Mcp.SET_VALUE, new Mcp.SetValueParams(server, name, value), Mcp.SetValueResult.class)
        .names();
  }
}
