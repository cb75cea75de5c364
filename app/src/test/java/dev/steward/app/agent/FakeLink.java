package dev.steward.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.Confirmation;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An in-memory stand-in for the service in view-model tests: decisions per tool, and a record of
 * every grant and execution. The window tests use the real service.
 */
final class FakeLink implements ServiceLink {

  final Map<String, String> decisions = new ConcurrentHashMap<>();
  final Map<String, ToolError> failures = new ConcurrentHashMap<>();
  final Map<String, JsonNode> results = new ConcurrentHashMap<>();
  final List<Grant.Params> grants = new CopyOnWriteArrayList<>();
  final List<Execute.Params> executed = new CopyOnWriteArrayList<>();
  final List<String> standingGrants = new CopyOnWriteArrayList<>();
  final List<Preflight.Params> previews = new CopyOnWriteArrayList<>();
  final List<Preflight.Params> preflights = new CopyOnWriteArrayList<>();
  final List<Deny.Params> denied = new CopyOnWriteArrayList<>();
  /** What the next grants throw, in turn; an empty queue mints. */
  final java.util.Queue<RuntimeException> grantRefusals =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  FakeLink() {
    decisions.put("files.list_dir", Preflight.ALLOW);
    decisions.put("files.write_text", Preflight.CONFIRM);
    decisions.put("files.delete", Preflight.CONFIRM);
  }

  static List<ToolDefinition> definitions() {
    return List.of(
        definition("files.list_dir", Risk.LOW, Confirmation.NEVER),
        definition("files.write_text", Risk.MEDIUM, Confirmation.IF_DESTRUCTIVE),
        definition("files.delete", Risk.HIGH, Confirmation.ALWAYS));
  }

  static ToolDefinition definition(String name, Risk risk, Confirmation confirmation) {
    try {
      return new ToolDefinition(
          name,
          "test tool " + name,
          Json.parse(
              "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}"),
          Json.parse("{\"type\":\"object\"}"),
          risk,
          confirmation,
          List.of(ScopeKind.PATHS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ProposedCall call(String id, String tool, String argsJson) {
    try {
      return new ProposedCall(
          id,
          definitions().stream().filter(d -> d.name().equals(tool)).findFirst().orElseThrow(),
          Json.parse(argsJson));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public List<ToolDefinition> tools() {
    return definitions();
  }

  @Override
  public CompletableFuture<Preflight.Result> preview(Preflight.Params params) {
    previews.add(params);
    return preflight(params);
  }

  @Override
  public void declined(Deny.Params params) {
    denied.add(params);
  }

  @Override
  public CompletableFuture<Preflight.Result> preflight(Preflight.Params params) {
    preflights.add(params);
    String tool = params.tool();
    JsonNode args = params.args();
    String decision = decisions.getOrDefault(tool, Preflight.DENY);
    Risk risk = definitions().stream()
        .filter(d -> d.name().equals(tool))
        .findFirst()
        .map(ToolDefinition::risk)
        .orElse(Risk.LOW);
    if (!args.path("path").isTextual()) {
      return CompletableFuture.completedFuture(new Preflight.Result(
          Preflight.DENY,
          "/path must be a string",
          risk,
          false,
          "VALIDATION_ERROR",
          "/path",
          null,
          null,
          null));
    }
    String code = Preflight.DENY.equals(decision) ? "SCOPE_DENIED" : null;
    String path = "/w/" + args.get("path").asText();
    List<String> grantable = risk == Risk.HIGH
        ? null
        : List.of(java.nio.file.Path.of(path).getParent().toString());
    return CompletableFuture.completedFuture(new Preflight.Result(
        decision,
        decision + " by the fake",
        risk,
        false,
        code,
        null,
        null,
        List.of(path),
        null,
        grantable));
  }

  @Override
  public CompletableFuture<ToolResult> execute(Execute.Params params) {
    executed.add(params);
    AuditMeta audit = new AuditMeta(
        "a-" + executed.size(), "allowed", Instant.EPOCH, Instant.EPOCH, "ran " + params.tool());
    ToolError failure = failures.get(params.tool());
    if (failure != null)
      return CompletableFuture.completedFuture(ToolResult.failure(failure, audit));
    if (!params.args().path("path").isTextual()) {
      return CompletableFuture.completedFuture(ToolResult.failure(
          new ToolError("VALIDATION_ERROR", "required property 'path' not found", "/path", null),
          audit));
    }
    if (Preflight.DENY.equals(decisions.get(params.tool()))) {
      return CompletableFuture.completedFuture(
          ToolResult.failure(ToolError.of("SCOPE_DENIED", "outside the allowed folders"), audit));
    }
    if (!Preflight.ALLOW.equals(decisions.get(params.tool())) && params.confirmToken() == null) {
      return CompletableFuture.completedFuture(
          ToolResult.failure(ToolError.of("TOKEN_MISSING", "needs a token"), audit));
    }
    JsonNode value = results.getOrDefault(params.tool(), Json.object().put("ran", params.tool()));
    return CompletableFuture.completedFuture(ToolResult.success(value, audit));
  }

  @Override
  public void cancel(String callId) {}

  @Override
  public Grant.Result grant(Grant.Params params) {
    grants.add(params);
    RuntimeException refusal = grantRefusals.poll();
    if (refusal != null) throw refusal;
    return new Grant.Result(
        "st1.tok" + grants.size() + ".mac", "tok" + grants.size(), Instant.now().plusSeconds(60));
  }

  @Override
  public void addStandingGrant(
      String tool, List<String> folders, @org.jspecify.annotations.Nullable Instant until) {
    standingGrants.add(tool + " " + folders + (until == null ? "" : " until " + until));
  }
}
