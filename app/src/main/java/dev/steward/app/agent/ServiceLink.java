package dev.steward.app.agent;

import dev.steward.protocol.method.Deny;
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

  /** The gate's decision for a call, asked by the agent (its preview carries no file contents). */
  CompletableFuture<Preflight.Result> preflight(Preflight.Params params);

  /** ui role: the same decision as the dialog shows it, with the preview's diff. */
  CompletableFuture<Preflight.Result> preview(Preflight.Params params);

  /** ui role: the user declined these calls (or let the approval expire): each gets a denied row. */
  void declined(Deny.Params params);

  CompletableFuture<ToolResult> execute(Execute.Params params);

  void cancel(String callId);

  /** ui role: a token for exactly the calls the user approved. */
  Grant.Result grant(Grant.Params params);

  /**
   * ui role: "always allow {@code tool} under {@code folders}" as a standing grant in the policy,
   * until {@code until} (null: until revoked). A grant that is already there is not added again.
   */
  void addStandingGrant(
      String tool,
      List<String> folders,
      java.time.@org.jspecify.annotations.Nullable Instant until);
}
