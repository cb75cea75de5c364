package dev.steward.service.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.ErrorCodes;
import dev.steward.protocol.jsonrpc.Notification;
import dev.steward.protocol.jsonrpc.RpcException;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Deny;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Hello;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.PackSettings;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.method.ToolProgress;
import dev.steward.protocol.method.ToolsList;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ScopeKind;
import dev.steward.protocol.tool.ToolDefinition;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.audit.AuditEntry;
import dev.steward.service.audit.AuditLog;
import dev.steward.service.audit.AuditUnavailableException;
import dev.steward.service.gate.CallRequest;
import dev.steward.service.gate.Caller;
import dev.steward.service.gate.Gate;
import dev.steward.service.policy.Policy;
import dev.steward.service.policy.PolicyChanges;
import dev.steward.service.policy.PolicyError;
import dev.steward.service.policy.PolicyStore;
import dev.steward.service.scope.Access;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.scope.ScopeDenied;
import dev.steward.service.token.ConfirmTokens;
import dev.steward.service.token.TokenRecord;
import dev.steward.service.tools.PackMethod;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolRegistry;
import dev.steward.service.tools.VersionStamp;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The handlers of SPEC §3's methods, registered on a {@link Dispatcher}. */
public final class ServiceMethods {

  public static final String SERVICE_VERSION = "0.1.0";
  private static final Set<Role> UI = EnumSet.of(Role.UI);
  private static final int MAX_PAGE = 1000;

  private final ToolRegistry tools;
  private final Gate gate;
  private final ConfirmTokens tokens;
  private final AuditLog audit;
  private final PolicyStore policies;
  private final Limits limits;
  private final Clock clock;
  private final ApprovalDesk approvals;

  public ServiceMethods(
      ToolRegistry tools,
      Gate gate,
      ConfirmTokens tokens,
      AuditLog audit,
      PolicyStore policies,
      Limits limits,
      Clock clock) {
    this.tools = tools;
    this.gate = gate;
    this.tokens = tokens;
    this.audit = audit;
    this.policies = policies;
    this.limits = limits;
    this.clock = clock;
    this.approvals = new ApprovalDesk(gate, clock);
  }

  /**
   * How approval requests reach the window: {@code toWindow} sends to every ui connection and
   * answers whether there was one.
   */
  public void sendApprovalsTo(java.util.function.Predicate<Notification> toWindow) {
    approvals.sendTo(toWindow);
  }

  /** A connection closed: its waiting approval requests are answered no. */
  public void connectionClosed(String connection) {
    mcpSessions.remove(connection);
    approvals.abandon(connection);
  }

  /** The mcp role's sessions open now, by id: the names their clients give. */
  private final java.util.Map<String, Session> mcpSessions =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How many other MCP clients connected now give {@code session}'s client's name. */
  private int alike(Session session) {
    mcpSessions.put(session.id(), session);
    String name = session.client();
    int alike = 0;
    for (Session other : mcpSessions.values())
      if (!other.id().equals(session.id()) && other.client().equals(name)) alike++;
    return alike;
  }

  public void registerOn(Dispatcher d) {
    d.register(Methods.SESSION_HELLO, (s, p) -> {
      JsonNode client = p.path("client");
      if (client.isTextual()) s.named(client.asText());
      if (s.role() == Role.MCP) mcpSessions.put(s.id(), s);
      return new Hello.Result(SERVICE_VERSION, s.role(), limits.wire());
    });
    d.register(Methods.TOOLS_LIST, (s, p) -> new ToolsList.Result(listed()));
    d.register(Methods.DEBUG_ECHO, (s, p) -> p);
    d.register(Methods.TOOL_PREFLIGHT, this::preflight);
    d.register(Methods.TOOL_EXECUTE, this::execute);
    d.register(Methods.TOOL_CANCEL, (s, p) -> {
      String callId =
          Params.require(Params.read(p, Execute.CancelParams.class).callId(), "call_id");
      // A call waiting for the user, or running, or not yet begun (remembered a while).
      return new Execute.CancelResult(
          approvals.cancel(s.id(), callId) || gate.cancel(s.id(), callId));
    });
    d.register(
        Methods.TOOL_UNDO,
        UI,
        (s, p) -> gate.undo(
            Params.require(Params.read(p, Execute.UndoParams.class).auditId(), "audit_id")));
    d.register(Methods.APPROVAL_DENY, UI, (s, p) -> deny(s, Params.read(p, Deny.Params.class)));
    d.register(Methods.CONFIRM_GRANT, UI, (s, p) -> grant(Params.read(p, Grant.Params.class)));
    d.register(
        Methods.CONFIRM_REVOKE, UI, (s, p) -> revoke(Params.read(p, Grant.RevokeParams.class)));
    d.register(Methods.AUDIT_QUERY, UI, (s, p) -> query(Params.read(p, Audit.QueryParams.class)));
    d.register(Methods.AUDIT_VERIFY, UI, (s, p) -> verify());
    d.register(Methods.AUDIT_ARGS, UI, (s, p) -> keptArgs(Params.read(p, Audit.ArgsParams.class)));
    d.register(Methods.POLICY_GET, UI, (s, p) -> policies.shown());
    d.register(Methods.POLICY_UPDATE, UI, (s, p) -> updatePolicy(p));
  }

  /** {@code secrets.set}: the window sets a pack's secret; the value goes to the file only. */
  public void registerSecrets(Dispatcher d, dev.steward.service.config.SecretsFile secrets) {
    d.register(Methods.SECRETS_SET, UI, (s, p) -> {
      JsonNode section = p.path("section");
      JsonNode key = p.path("key");
      JsonNode value = p.path("value");
      if (!section.isTextual() || !key.isTextual() || !(value.isTextual() || value.isNull())) {
        throw RpcException.invalidParams(
            "secrets.set takes {section, key, value}: names, and a string (null removes it)");
      }
      try {
        boolean set =
            secrets.set(section.asText(), key.asText(), value.isNull() ? null : value.asText());
        recordUserAct(
            Methods.SECRETS_SET,
            (value.isNull() ? "removed" : "set") + " the secret "
                + PackMethod.quoted(key.asText()) + " of "
                + PackMethod.quoted(section.asText()));
        return Json.object()
            .put("section", section.asText())
            .put("key", key.asText())
            .put("set", set);
      } catch (IllegalArgumentException e) {
        throw RpcException.invalidParams(String.valueOf(e.getMessage()));
      } catch (java.io.IOException e) {
        // The file's own text can be quoted in a parser's message: it never leaves here.
        throw new RpcException(
            ErrorCodes.UNAVAILABLE,
            "config/secrets.json cannot be read or written; fix or remove it, then set the secrets again");
      }
    });
  }

  /** The window's methods of the packs (their settings); a pack's failure is the caller's error. */
  public void registerPackMethods(Dispatcher d, List<PackMethod> methods) {
    for (PackMethod m : methods) {
      d.register(m.name(), UI, (s, p) -> {
        Object answer;
        try {
          answer = m.handler().handle(p);
        } catch (ToolFailure f) {
          throw RpcException.invalidParams(f.error().message());
        }
        String said = m.said() == null ? null : m.said().say(p, answer);
        if (said != null) recordUserAct(m.name(), said);
        return answer;
      });
    }
  }

  /** The packs' settings sections, for the window's forms (ui role). */
  public void registerPackSettings(Dispatcher d, List<PackSettings.Section> sections) {
    PackSettings.Result result = new PackSettings.Result(sections);
    d.register(Methods.PACKS_SETTINGS, UI, (s, p) -> result);
  }

  /** The tools on offer: every tool the packs list, less those the user turned off. */
  private List<ToolDefinition> listed() {
    Policy policy = policies.current();
    return tools.all().stream()
        .filter(t -> !policy.turnedOff(t.name()))
        .map(Tool::definition)
        .toList();
  }

  private Preflight.Result preflight(Session session, JsonNode p) {
    Preflight.Params params = Params.read(p, Preflight.Params.class);
    return gate.preflight(
        Caller.of(session.role(), session.id(), params.conversationId())
            .inProse(Boolean.TRUE.equals(params.inProse())),
        Params.require(params.traceId(), "trace_id"),
        Params.require(params.tool(), "tool"),
        Params.require(params.args(), "args"));
  }

  private Deny.Result deny(Session session, Deny.Params p) {
    if (p.requestId() != null) {
      if (!approvals.deny(p.requestId(), p.reason()))
        throw RpcException.invalidParams(
            "no approval request \"" + p.requestId() + "\" is waiting");
      return new Deny.Result(List.of());
    }
    String traceId = Params.require(p.traceId(), "trace_id");
    List<Deny.Call> calls = Params.require(p.calls(), "calls");
    if (calls.isEmpty() || calls.size() > Deny.MAX_CALLS)
      throw RpcException.invalidParams("calls must name 1–" + Deny.MAX_CALLS + " calls");
    String reason =
        p.reason() == null || p.reason().isBlank() ? "declined by the user" : p.reason();
    Caller caller = Caller.of(session.role(), session.id(), p.conversationId());
    List<String> ids = new ArrayList<>();
    try {
      for (Deny.Call c : calls) {
        ids.add(gate.denied(
            caller,
            traceId,
            c.callId(),
            Params.require(c.tool(), "calls[].tool"),
            Params.require(c.args(), "calls[].args"),
            reason,
            !Boolean.FALSE.equals(p.byUser())));
      }
    } catch (AuditUnavailableException e) {
      throw new RpcException(
          ErrorCodes.UNAVAILABLE, "the audit log is unavailable, so the refusal was not recorded");
    }
    return new Deny.Result(ids);
  }

  private Object execute(Session session, JsonNode p) {
    Execute.Params e = Params.read(p, Execute.Params.class);
    CallRequest call = new CallRequest(
        Params.require(e.traceId(), "trace_id"),
        Params.require(e.callId(), "call_id"),
        Params.require(e.tool(), "tool"),
        Params.require(e.args(), "args"),
        e.confirmToken(),
        e.idempotencyKey(),
        Caller.of(session.role(), session.id(), e.conversationId())
            .named(session.client())
            .inProse(Boolean.TRUE.equals(e.inProse())),
        message -> session.send(new Notification(
            Methods.TOOL_PROGRESS,
            Json.pojo(new ToolProgress(e.traceId(), e.callId(), message, null)))));
    // A client that cannot click waits for the user in the window, where the rules ask for it.
    if (session.role() == Role.MCP && e.confirmToken() == null) {
      // One check for a call that needs no click; a preflight, with its row, for one that does.
      Optional<ToolResult> ran = gate.executeUnlessItNeedsAClick(call);
      if (ran.isPresent()) return ran.get();
      Preflight.Result pre =
          gate.preflight(call.caller(), call.traceId(), call.tool(), call.args());
      if (Preflight.CONFIRM.equals(pre.decision()))
        return approvals.execute(call, session.client(), alike(session), pre);
    }
    return gate.execute(call);
  }

  private Grant.Result grant(Grant.Params g) {
    String traceId = Params.require(g.traceId(), "trace_id");
    String requestId = g.requestId();
    if (requestId != null) {
      List<Grant.Call> asked = g.calls();
      if (asked == null
          || asked.size() != 1
          || !approvals.waits(requestId, traceId, String.valueOf(asked.get(0).tool())))
        throw RpcException.invalidParams("no approval request \"" + requestId
            + "\" waits for that call: a grant for a request names its one call");
      Grant.Result minted = mint(g, traceId);
      boolean taken = approvals.grant(
          requestId,
          traceId,
          asked.get(0).tool(),
          Params.require(asked.get(0).args(), "calls[].args"),
          minted.confirmToken());
      if (!taken) {
        // The request ran out (or another window answered) between the check and the mint: no
        // token may stay alive with no call to use it.
        revoke(new Grant.RevokeParams(minted.tokenId()));
        throw RpcException.invalidParams(
            "the approval request \"" + requestId + "\" is no longer waiting");
      }
      return minted;
    }
    return mint(g, traceId);
  }

  /**
   * A grant refused because what the dialog showed is no longer so ({@link Grant#SHOWN_CHANGED}),
   * saying which paths changed and how, so the dialog shown again can say it.
   */
  private static RpcException shownChanged(String field, List<Grant.Changed> changed) {
    String what =
        changed.isEmpty() ? "what the dialog showed has changed" : Grant.Changed.said(changed);
    com.fasterxml.jackson.databind.node.ObjectNode data =
        Json.object().put("reason", Grant.SHOWN_CHANGED);
    data.set("changed", Json.tree(changed));
    return new RpcException(
        dev.steward.protocol.jsonrpc.ErrorCodes.INVALID_PARAMS,
        field + ": since the dialog showed it, " + what + ": show it again",
        data);
  }

  /** The paths whose stamps no longer match, each with how it changed. */
  private static List<Grant.Changed> changedStamps(
      String tool, List<String> paths, List<String> seen, List<String> now) {
    List<Grant.Changed> out = new ArrayList<>();
    if (seen.size() != now.size() || paths.size() > now.size()) return out;
    for (int i = 0; i < now.size(); i++) {
      if (i < paths.size()) {
        String how = FileStamp.change(seen.get(i), now.get(i));
        if (how != null) out.add(new Grant.Changed(tool, paths.get(i), how));
        continue;
      }
      // After the paths, what the call acts on beyond them, named by its argument.
      String pointer = VersionStamp.pointer(now.get(i));
      if (pointer == null || seen.get(i).equals(now.get(i))) continue;
      out.add(new Grant.Changed(
          tool,
          "what " + pointer + " names",
          FileStamp.unreadable(now.get(i))
              ? "unreadable"
              : VersionStamp.isMissing(now.get(i)) ? "gone" : "changed"));
    }
    return out;
  }

  /** The shown targets that now lead elsewhere. */
  private static List<Grant.Changed> changedTargets(
      String tool, List<String> shown, List<String> targets) {
    List<Grant.Changed> out = new ArrayList<>();
    for (int i = 0; i < shown.size(); i++) {
      if (i >= targets.size() || !shown.get(i).equals(targets.get(i)))
        out.add(new Grant.Changed(tool, shown.get(i), "elsewhere"));
    }
    return out;
  }

  private Grant.Result mint(Grant.Params g, String traceId) {
    int ttlS = g.ttlS() == null ? (int) ConfirmTokens.DEFAULT_TTL.toSeconds() : g.ttlS();
    if (ttlS < 1 || ttlS > ConfirmTokens.MAX_TTL.toSeconds()) {
      throw RpcException.invalidParams(
          "ttl_s must be between 1 and " + ConfirmTokens.MAX_TTL.toSeconds());
    }
    boolean exact = g.calls() != null && !g.calls().isEmpty();
    boolean scoped = g.tools() != null && !g.tools().isEmpty();
    if (exact == scoped)
      throw RpcException.invalidParams("give either \"calls\" or \"tools\" with a \"scope\"");
    List<TokenRecord.Call> calls = new ArrayList<>();
    List<Path> scopePaths = new ArrayList<>();
    Risk highest = Risk.LOW;
    List<String> names = new ArrayList<>();
    List<Grant.Call> asked = g.calls();
    List<String> toolNames = g.tools();
    if (exact && asked != null) {
      if (asked.size() > 100) throw RpcException.invalidParams("at most 100 calls per token");
      for (Grant.Call c : asked) {
        Tool t = tool(Params.require(c.tool(), "calls[].tool"));
        JsonNode args = Params.require(c.args(), "calls[].args");
        String hash;
        try {
          hash = CanonicalJson.sha256(args);
        } catch (RuntimeException e) {
          throw RpcException.invalidParams("calls[].args of " + t.name()
              + " hold a value that has no canonical form (a number too large?)");
        }
        Gate.Bound bound = gate.bound(t, args);
        List<String> targets = bound.targets();
        List<String> shown = c.targets();
        if (shown != null && !shown.equals(targets))
          throw shownChanged(
              "calls[].targets of " + t.name() + " (now reaching " + String.join(", ", targets)
                  + ")",
              changedTargets(t.name(), shown, targets));
        if (bound.fingerprints().stream().anyMatch(FileStamp::unreadable))
          throw RpcException.invalidParams(t.name() + " reaches something Steward cannot read"
              + " whole (a path's permissions, a folder too large to stamp, a calendar that does"
              + " not answer), so an approval cannot be bound to what is there");
        List<String> seen = c.fingerprints();
        if (seen != null && !FileStamp.allMatch(seen, bound.fingerprints()))
          throw shownChanged(
              "calls[].fingerprints of " + t.name(),
              changedStamps(t.name(), targets, seen, bound.fingerprints()));
        // What the user saw, when the dialog said; else what is there now.
        calls.add(new TokenRecord.Call(
            t.name(), hash, targets, seen != null ? seen : bound.fingerprints()));
        highest = max(highest, gate.risk(t, args));
        names.add(t.name());
      }
    } else {
      Grant.Scope scope = g.scope();
      List<String> folders = scope == null ? null : scope.paths();
      if (folders == null || folders.isEmpty()) {
        throw RpcException.invalidParams("a token for tools needs scope.paths");
      }
      for (String name : toolNames == null ? List.<String>of() : toolNames) {
        Tool t = tool(name);
        if (t.definition().risk() == Risk.HIGH) {
          throw RpcException.invalidParams(
              name + " is high risk: only a token for exact calls can cover it");
        }
        if (!t.definition().scopes().contains(ScopeKind.PATHS)) {
          throw RpcException.invalidParams(name
              + " takes no paths, so a token for a folder cannot cover it: give the exact calls");
        }
        if (t.definition().scopes().contains(ScopeKind.HOSTS)) {
          throw RpcException.invalidParams(
              name
                  + " reaches hosts, which a token for a folder says nothing about: give the exact calls");
        }
        names.add(name);
      }
      for (String folder : folders) {
        try {
          scopePaths.add(policies.current().scope().resolve(folder, Access.READ).real());
        } catch (ScopeDenied e) {
          throw RpcException.invalidParams("scope: " + e.getMessage());
        }
      }
    }
    ConfirmTokens.Minted m = tokens.mint(
        traceId,
        calls,
        g.tools() == null ? List.of() : g.tools(),
        scopePaths,
        Boolean.TRUE.equals(g.reusable()),
        Duration.ofSeconds(ttlS),
        highest,
        audit.lastSeq());
    try {
      audit.record(new AuditEntry(
          AuditKind.GRANT,
          traceId,
          null,
          String.join(",", names),
          null,
          exact ? calls.size() + " exact call(s)" : "scope " + scopePaths,
          null,
          "minted by the user",
          m.record().tokenId(),
          Outcome.OK,
          null,
          "token until " + m.record().expiresAt() + (m.record().reusable() ? " (reusable)" : ""),
          clock.instant(),
          clock.instant()));
    } catch (AuditUnavailableException e) {
      tokens.revoke(m.record().tokenId());
      throw new RpcException(
          ErrorCodes.UNAVAILABLE, "the audit log is unavailable, so no token was minted");
    }
    return new Grant.Result(m.token(), m.record().tokenId(), m.record().expiresAt());
  }

  private Grant.RevokeResult revoke(Grant.RevokeParams p) {
    String id = Params.require(p.tokenId(), "token_id");
    boolean revoked = tokens.revoke(id);
    if (revoked) {
      try {
        audit.record(new AuditEntry(
            AuditKind.GRANT,
            null,
            null,
            null,
            null,
            null,
            null,
            "revoked by the user",
            id,
            Outcome.OK,
            null,
            "token revoked",
            clock.instant(),
            clock.instant()));
      } catch (AuditUnavailableException e) {
        throw new RpcException(ErrorCodes.UNAVAILABLE, "revoked, but the audit log is unavailable");
      }
    }
    return new Grant.RevokeResult(revoked);
  }

  private Audit.QueryResult query(Audit.QueryParams q) {
    int limit = q.limit() == null ? 100 : q.limit();
    if (limit < 1 || limit > MAX_PAGE)
      throw RpcException.invalidParams("limit must be between 1 and " + MAX_PAGE);
    try {
      return audit.query(q, limit);
    } catch (IllegalArgumentException e) {
      throw RpcException.invalidParams(String.valueOf(e.getMessage()));
    } catch (AuditUnavailableException e) {
      throw new RpcException(ErrorCodes.UNAVAILABLE, e.getMessage());
    }
  }

  /** {@code audit.args}: the whole arguments a cut preview names, read back and checked. */
  private Audit.ArgsResult keptArgs(Audit.ArgsParams p) {
    if (!dev.steward.protocol.audit.WholeArgs.isHash(p.sha256()))
      throw RpcException.invalidParams("sha256 must be 64 lower-case hex digits");
    try {
      return new Audit.ArgsResult(
          p.sha256(),
          audit
              .keptArgs(p.sha256())
              .orElseThrow(
                  () -> RpcException.invalidParams("no whole arguments are kept under this hash")));
    } catch (AuditUnavailableException e) {
      throw new RpcException(ErrorCodes.UNAVAILABLE, e.getMessage());
    }
  }

  private Audit.VerifyResult verify() {
    try {
      return audit.verify();
    } catch (AuditUnavailableException e) {
      throw new RpcException(ErrorCodes.UNAVAILABLE, e.getMessage());
    }
  }

  /**
   * {@code policy.update}; what it changed goes to the audit log as a {@code policy} row (the
   * folders a call may reach, the grants that waive a click: a user looking back sees when).
   */
  private PolicyDocument updatePolicy(JsonNode p) {
    PolicyStore.Shown shown;
    try {
      shown = policies.updateShown(PolicyStore.parse(Json.write(p)));
    } catch (PolicyError e) {
      throw RpcException.invalidParams(e.getMessage());
    } catch (IOException e) {
      throw new RpcException(ErrorCodes.UNAVAILABLE, "cannot save policy.json: " + e.getMessage());
    }
    List<String> changes = PolicyChanges.between(shown.before(), shown.after());
    if (!changes.isEmpty()) recordUserAct(Methods.POLICY_UPDATE, String.join("; ", changes));
    return shown.after();
  }

  /**
   * A {@code policy} row for what the user did in the window ({@code method}, and {@code said}: in
   * words, without a secret's value). Written after the act: one the log cannot record is said so.
   */
  public void recordUserAct(String method, String said) {
    Instant now = clock.instant();
    try {
      audit.record(new AuditEntry(
          AuditKind.POLICY,
          null,
          null,
          method,
          null,
          null,
          null,
          "by the user",
          null,
          Outcome.OK,
          null,
          said,
          now,
          now));
    } catch (AuditUnavailableException e) {
      throw new RpcException(
          ErrorCodes.UNAVAILABLE, method + " was done, but the audit log is unavailable");
    }
  }

  private Tool tool(String name) {
    return tools
        .find(name)
        .orElseThrow(() -> RpcException.invalidParams("unknown tool \"" + name + "\""));
  }

  private static Risk max(Risk a, Risk b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }
}
