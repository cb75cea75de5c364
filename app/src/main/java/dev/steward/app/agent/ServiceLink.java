package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the agent needs from the service. Checks and runs go over the agent's connection; minting
 * a token and adding a grant go over the ui connection, and only after a user's click.
 */
public interface ServiceLink {

  List<ToolDefinition> tools();

  CompletableFuture<Preflight.Result> preflight(String traceId, String tool, JsonNode args);

  CompletableFuture<ToolResult> execute(Execute.Params params);

  void cancel(String callId);

  /** ui role: a token for exactly the calls the user approved. */
  Grant.Result grant(Grant.Params params);

  /** ui role: "always allow {@code tool} under {@code folders}" as a standing grant in the policy. */
  void addStandingGrant(String tool, List<String> folders);
}
