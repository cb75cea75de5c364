package dev.steward.app.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/** {@link ServiceLink} over the app's two connections: agent for calls, ui for approvals. */
public final class ClientServiceLink implements ServiceLink {

  private final StewardClient agent;
  private final StewardClient ui;

  public ClientServiceLink(StewardClient agent, StewardClient ui) {
    this.agent = agent;
    this.ui = ui;
  }

  @Override
  public List<ToolDefinition> tools() {
    return agent.tools();
  }

  @Override
  public CompletableFuture<Preflight.Result> preflight(Preflight.Params params) {
    return agent
        .call(Methods.TOOL_PREFLIGHT, params)
        .thenApply(n -> Json.convert(n, Preflight.Result.class));
  }

  @Override
  public CompletableFuture<Preflight.Result> preview(Preflight.Params params) {
    return ui.call(Methods.TOOL_PREFLIGHT, params)
        .thenApply(n -> Json.convert(n, Preflight.Result.class));
  }

  @Override
  public void declined(Deny.Params params) {
    ui.deny(params);
  }

  @Override
  public CompletableFuture<ToolResult> execute(Execute.Params params) {
    return agent.executeAsync(params);
  }

  @Override
  public void cancel(String callId) {
    agent.call(Methods.TOOL_CANCEL, new Execute.CancelParams(callId));
  }

  @Override
  public Grant.Result grant(Grant.Params params) {
    return ui.grant(params);
  }

  @Override
  public void addStandingGrant(String tool, List<String> folders, @Nullable Instant until) {
    // The policy is read and written whole; the service validates it and refuses what it cannot
    // use.
    ObjectNode policy = (ObjectNode) ui.await(ui.call(Methods.POLICY_GET, Json.object()));
    ArrayNode grants = policy.withArray("grants");
    for (com.fasterxml.jackson.databind.JsonNode g : grants) {
      java.util.Set<String> paths = new java.util.HashSet<>();
      g.path("paths").forEach(p -> paths.add(p.asText()));
      boolean same =
          g.path("tool").asText().equals(tool) && paths.equals(new java.util.HashSet<>(folders));
      String expires = g.path("expires_at").asText(null);
      boolean lastsLongEnough =
          expires == null || until != null && !Instant.parse(expires).isBefore(until);
      if (same && lastsLongEnough) return; // already allowed, for at least as long
    }
    ObjectNode grant = grants.addObject();
    grant.put("id", "g-" + UUID.randomUUID().toString().substring(0, 8));
    grant.put("tool", tool);
    ArrayNode paths = grant.putArray("paths");
    folders.forEach(paths::add);
    grant.put("created_at", Instant.now().toString());
    if (until != null) grant.put("expires_at", until.toString());
    ui.await(ui.call(Methods.POLICY_UPDATE, policy));
  }
}
