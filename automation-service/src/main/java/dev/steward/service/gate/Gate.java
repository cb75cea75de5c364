package dev.steward.service.gate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.method.ToolResults;
import dev.steward.protocol.tool.AuditMeta;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.audit.AuditEntry;
import dev.steward.service.audit.AuditLog;
import dev.steward.service.audit.AuditUnavailableException;
import dev.steward.service.audit.ChainedRow;
import dev.steward.service.policy.Policy;
import dev.steward.service.policy.PolicyStore;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.scope.ResolvedPath;
import dev.steward.service.token.ConfirmTokens;
import dev.steward.service.token.TokenRefused;
import dev.steward.service.tools.OneLook;
import dev.steward.service.tools.PathUse;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import dev.steward.service.tools.ToolRegistry;
import dev.steward.service.tools.UndoContext;
import dev.steward.service.tools.VersionStamp;
import dev.steward.service.undo.UndoRecord;
import dev.steward.service.undo.UndoStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Every tool call passes here, in this order: the tool and ids → schema and the tool's own
 * argument checks → scopes → confirmation rule → token → audit decision row → run → audit
 * completion row → {@code tool.results}. A refusal at any step is written to the audit log as a
 * blocked decision and answered as a result with {@code ok: false}; if the decision row cannot
 * be written, nothing runs.
 */
public final class Gate implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(Gate.class.getName());
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@/+=-]{1,128}");

  /** The trace and call id of the warm-up's rehearsed rows. */
  private static final String WARM_UP = "warm-up";

  /** The client a rehearsed row names, as an MCP client's rows name theirs. */
  private static final Caller WARM_UP_CLIENT =
      Caller.of(dev.steward.protocol.method.Role.MCP, WARM_UP, null).named(WARM_UP);
  /** The name undo calls carry in the log and in {@code tool.results}. */
  public static final String UNDO = "tool.undo";

  private final ToolRegistry tools;
  private final PolicyStore policies;
  private final ConfirmTokens tokens;
  private final AuditLog audit;
  private final UndoStore undo;
  private final Clock clock;
  private final SchemaCheck schemas;
  private final Taint taint;
  private final HostResolver resolver;
  private final ToolRunner runner = new ToolRunner();
  private volatile Runnable clientCall = () -> {};
  private final IdempotencyCache idempotency = new IdempotencyCache();
  private final List<Consumer<ToolResults>> resultListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  public Gate(
      ToolRegistry tools,
      PolicyStore policies,
      ConfirmTokens tokens,
      AuditLog audit,
      UndoStore undo,
      Taint taint,
      HostResolver resolver,
      Clock clock) {
    this.undo = undo;
    this.resolver = resolver;
    this.taint = taint;
    this.tools = tools;
    this.policies = policies;
    this.tokens = tokens;
    this.audit = audit;
    this.clock = clock;
    this.schemas = new SchemaCheck(tools);
  }

  public void onResult(Consumer<ToolResults> listener) {
    resultListeners.add(listener);
  }

  /** What the checks found for a call that passed them. */
  private record Checked(
      Tool tool,
      String argsHash,
      Map<String, ResolvedPath> paths,
      boolean destructive,
      Risk risk,
      Requirement requirement,
      Policy policy) {}

  // ---- preflight ---------------------------------------------------------------------------

  /**
   * {@code tool.preflight}: the decision without running anything, and a row of kind {@code
   * preflight} (every attempt a model makes is in the log, even those it never sends). Nothing
   * here resolves a host name: a host the user has not approved is not looked up (SPEC §10).
   * Previews show file contents (a diff) only to the window: an agent must not read through a
   * preview what it could not read without a row of its own.
   */
  public Preflight.Result preflight(Caller caller, String traceId, String toolName, JsonNode args) {
    clientCall.run();
    Instant started = clock.instant();
    Optional<Tool> found = tools.find(toolName);
    Preflight.Result result;
    if (found.isEmpty()) {
      result = new Preflight.Result(
          Preflight.DENY,
          "unknown tool \"" + toolName + "\"",
          Risk.LOW,
          false,
          ToolErrorCodes.VALIDATION_ERROR,
          "/tool",
          null,
          null,
          null);
    } else {
      Tool tool = found.get();
      // The look, the stamps and the preview see the world as one read: what is approved is what
      // the dialog showed.
      result = OneLook.during(() -> decide(caller, tool, traceId, args));
    }
    audit.recordQuietly(new AuditEntry(
        AuditKind.PREFLIGHT,
        traceId,
        null,
        toolName,
        safeHash(args),
        unkeptPreview(found.orElse(null), args),
        // A preflight decides nothing: its verdict is in the summary, so that filtering by decision
        // still shows what happened to calls.
        null,
        result.reason(),
        null,
        null,
        result.code(),
        "preflight: " + result.decision() + " (" + caller.role().wire() + ")",
        started,
        clock.instant()));
    return result;
  }

  private Preflight.Result decide(Caller caller, Tool tool, String traceId, JsonNode args) {
    Risk risk = tool.definition().risk();
    try {
      checkId(traceId, "/trace_id");
      Checked c = check(tool, caller, args, true);
      List<String> paths = reals(c.paths());
      // Read before the preview reads the files: a change after it gives another stamp. Only the
      // window is given them: it hands them back with the user's approval, and no one else needs
      // to learn when a file changes.
      List<String> fingerprints = caller.role() == Role.UI ? stamps(tool, args, c.paths()) : null;
      List<String> taintSources = taintOf(caller);
      JsonNode preview = previewOf(tool, args, c, caller.role() == Role.UI);
      if (c.requirement().needsToken()) {
        prepare(tool);
        return new Preflight.Result(
            Preflight.CONFIRM,
            "needs your confirmation: " + String.join("; ", c.requirement().reasons()),
            c.risk(),
            c.destructive(),
            ToolErrorCodes.CONFIRMATION_REQUIRED,
            null,
            taintSources.isEmpty() ? null : taintSources,
            paths,
            preview,
            grantFolders(tool, c.risk(), c),
            fingerprints);
      }
      String reason = c.requirement().waivedBy().isEmpty()
          ? "allowed by policy"
          : "allowed by your standing grant " + c.requirement().waivedBy().get(0);
      return new Preflight.Result(
          Preflight.ALLOW,
          reason,
          c.risk(),
          c.destructive(),
          null,
          null,
          taintSources.isEmpty() ? null : taintSources,
          paths,
          preview,
          null,
          fingerprints);
    } catch (Refusal r) {
      return new Preflight.Result(
          Preflight.DENY,
          r.getMessage(),
          risk,
          false,
          r.error().code(),
          r.error().field(),
          null,
          null,
          null);
    }
  }

  /** The tool's dry run for a dialog, or none when the tool fails at it (the call is judged all the same). */
  private static @Nullable JsonNode previewOf(
      Tool tool, JsonNode args, Checked c, boolean forPerson) {
    try {
      return tool.preview(args, ToolContext.forPreview(c.paths(), c.policy().scope(), forPerson))
          .orElse(null);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, tool.name() + " could not preview a call", e);
      return null;
    }
  }

  /** What "Always allow here" would cover: the folder of each path, when every one may have a grant. */
  private static @Nullable List<String> grantFolders(Tool tool, Risk risk, Checked c) {
    if (risk == Risk.HIGH || c.paths().isEmpty() || !tool.boundByItsFolders()) return null;
    java.util.Set<String> folders = new java.util.LinkedHashSet<>();
    for (ResolvedPath p : c.paths().values()) {
      Optional<java.nio.file.Path> folder = c.policy().scope().grantFolder(p.real());
      if (folder.isEmpty()) return null;
      folders.add(folder.get().toString());
    }
    return List.copyOf(folders);
  }

  // ---- denied by the user ------------------------------------------------------------------

  /** A call the user declined: one decision row, {@code denied}, with the arguments' hash. */
  public String denied(
      Caller caller,
      String traceId,
      @Nullable String callId,
      String toolName,
      JsonNode args,
      String reason)
      throws AuditUnavailableException {
    return denied(caller, traceId, callId, toolName, args, reason, true);
  }

  /**
   * A call that did not run: one decision row, {@code denied}. {@code byTheUser}: the user said no
   * (the whole arguments are kept beside the log, as for a call that ran); otherwise it was turned
   * away on its way to the user (a limit, a cancel, a client gone), which costs a client nothing to
   * ask for, and only the row's preview is kept (ADR 44).
   */
  public String denied(
      Caller caller,
      String traceId,
      @Nullable String callId,
      String toolName,
      JsonNode args,
      String reason,
      boolean byTheUser)
      throws AuditUnavailableException {
    Instant now = clock.instant();
    Optional<Tool> tool = tools.find(toolName);
    ChainedRow row = audit.record(new AuditEntry(
        AuditKind.DECISION,
        traceId,
        callId,
        toolName,
        safeHash(args),
        byTheUser ? preview(tool.orElse(null), args, true) : unkeptPreview(tool.orElse(null), args),
        Decision.DENIED,
        reason + caller.askedBy(),
        null,
        null,
        null,
        "not run: " + reason + " (" + caller.role().wire() + ")",
        now,
        now));
    return Long.toString(row.seq());
  }

  // ---- execute -----------------------------------------------------------------------------

  public ToolResult execute(CallRequest call) {
    String key = call.idempotencyKey();
    if (key == null) return executeOnce(call);
    String argsHash = safeHash(call.args());
    IdempotencyCache.Claim mine =
        new IdempotencyCache.Claim(call.tool(), argsHash, new CompletableFuture<>());
    IdempotencyCache.Claim earlier =
        idempotency.claim(call.caller().idempotencyScope() + key, mine);
    if (earlier != null) {
      if (!earlier.tool.equals(call.tool()) || !earlier.argsHash.equals(argsHash)) {
        return refuse(
            call,
            null,
            null,
            new Refusal(
                ToolErrorCodes.VALIDATION_ERROR,
                "idempotency_key was already used for a different call",
                "/idempotency_key"));
      }
      ToolResult first;
      try {
        first = earlier.result().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ToolResult.failure(ToolError.of(ToolErrorCodes.CANCELLED, "interrupted"), null);
      } catch (ExecutionException e) {
        return ToolResult.failure(
            ToolError.of(ToolErrorCodes.INTERNAL, "the first attempt failed inside the service"),
            null);
      }
      if (first == IdempotencyCache.FORGOTTEN) {
        return refuse(
            call,
            null,
            null,
            new Refusal(
                ToolErrorCodes.UNAVAILABLE,
                "the first result for this idempotency_key is no longer kept (the service keeps the latest "
                    + (IdempotencyCache.MAX_KEPT_BYTES >> 20)
                    + " MB of results), and the call was not run again",
                "/idempotency_key"));
      }
      return first;
    }
    try {
      ToolResult result = executeOnce(call);
      idempotency.done(
          mine, result, result.value() == null ? 256 : JsonSize.estimate(result.value()));
      return result;
    } catch (RuntimeException | Error e) {
      // Whatever ends the first attempt, a retry with the same key must not wait for it forever.
      mine.result().completeExceptionally(e);
      throw e;
    }
  }

  /** Compiles every tool's argument schema (the service runs this once it answers). */
  public void compileSchemas() {
    schemas.compileAll();
  }

  /**
   * {@link #execute} for a client that cannot click, in one check: a call that the rules would
   * refuse for want of the user's click is neither run nor refused, and nothing is written (empty),
   * so that the caller asks the user — by a preflight, with its row, that the window shows. A call
   * with an idempotency key is not taken (empty as well): its first attempt's claim must end in a
   * result.
   */
  public Optional<ToolResult> executeUnlessItNeedsAClick(CallRequest call) {
    if (call.confirmToken() != null || call.idempotencyKey() != null) return Optional.empty();
    return Optional.ofNullable(executeOnce(call, true));
  }

  private ToolResult executeOnce(CallRequest call) {
    return java.util.Objects.requireNonNull(
        executeOnce(call, false), "answers none only when asked to");
  }

  /** @param askInstead answer null, having written nothing, where the call needs a click it lacks */
  private @Nullable ToolResult executeOnce(CallRequest call, boolean askInstead) {
    clientCall.run();
    Instant started = clock.instant();
    Optional<Tool> found = tools.find(call.tool());
    if (found.isEmpty()) {
      return refuse(
          call,
          null,
          started,
          new Refusal(
              ToolErrorCodes.VALIDATION_ERROR, "unknown tool \"" + call.tool() + "\"", "/tool"));
    }
    Tool tool = found.get();
    Checked c;
    Decision decision;
    String tokenId = null;
    Stamped stamped = null;
    UndoStore.Held held = null;
    try {
      checkId(call.traceId(), "/trace_id");
      checkId(call.callId(), "/call_id");
      // With a token, the click was given: the run meets what the look would have.
      // A call to be asked for looks in its preflight, once.
      c = check(tool, call.caller(), call.args(), call.confirmToken() == null && !askInstead);
      if (call.confirmToken() != null) {
        Checked checked = c;
        stamped = new Stamped(() -> stamps(tool, call.args(), checked.paths()));
        tokenId = consumeToken(call, c, stamped);
        decision = Decision.CONFIRMED;
      } else if (c.requirement().needsToken()) {
        if (askInstead) return null;
        throw new Refusal(
            ToolErrorCodes.TOKEN_MISSING,
            "this call needs the user's confirmation ("
                + String.join("; ", c.requirement().reasons()) + ") and no confirm_token was given",
            "/confirm_token");
      } else {
        decision = Decision.ALLOWED;
      }
      // Only now, approved by the user or by policy, may the call's host names be looked up.
      ScopeCheck.checkResolved(tool, call.args(), c.policy(), resolver);
      if (c.destructive()) {
        // What a change replaces is measured (a walk of a folder it deletes) only where a standing
        // grant could let a call run beside it unasked; elsewhere its room is held unmeasured, as
        // large as the area, in case a grant is added while it runs.
        long bytes = c.policy().document().grants().isEmpty()
            ? Long.MAX_VALUE
            : UndoRoom.replaced(c.paths().values());
        if (decision.equals(Decision.ALLOWED) && !c.requirement().waivedBy().isEmpty()) {
          held = undo.holdUnlessPushesOutSince(
                  bytes, clock.instant().minus(UndoStore.KEPT_AT_LEAST))
              .orElse(null);
        } else {
          // A call the user approved, or the policy lets run, pushes out what it must; its room
          // is held all the same, so that a granted call beside it is judged with it counted.
          held = undo.hold(bytes);
        }
        // Another call let run meanwhile took the room this one was judged against.
        if (held == null) {
          if (askInstead) return null;
          throw new Refusal(
              ToolErrorCodes.TOKEN_MISSING,
              "this call needs the user's confirmation ("
                  + ConfirmationRule.PUSHES_OUT_RECENT_UNDO
                  + ") and no confirm_token was given",
              "/confirm_token");
        }
      }
    } catch (Refusal r) {
      return refuse(call, tool, started, r);
    }
    try {
      return run(call, tool, c, decision, tokenId, stamped, started);
    } finally {
      // Given back however the call ends (a tool's Error too); until then the call's data, once
      // kept, is counted twice, which costs at most a click.
      if (held != null) held.giveBack();
    }
  }

  /** A call decided on: its decision row, its run, its completion row. */
  private ToolResult run(
      CallRequest call,
      Tool tool,
      Checked c,
      Decision decision,
      @Nullable String tokenId,
      @Nullable Stamped stamped,
      Instant started) {
    String reason = decision.equals(Decision.CONFIRMED)
        ? "confirmed by the user"
        : c.requirement().waivedBy().isEmpty()
            ? "allowed by policy"
            : "standing grant " + c.requirement().waivedBy().get(0);
    String preview;
    ChainedRow decisionRow;
    try {
      preview = preview(tool, call.args(), decision.equals(Decision.CONFIRMED));
      decisionRow = audit.record(entry(
          AuditKind.DECISION,
          call,
          tool,
          c,
          preview,
          decision,
          reason,
          tokenId,
          null,
          null,
          null,
          started,
          null));
    } catch (AuditUnavailableException e) {
      LOG.log(Level.SEVERE, "audit unavailable; refusing to run " + tool.name(), e);
      return ToolResult.failure(
          ToolError.of(ToolErrorCodes.INTERNAL, "the audit log is unavailable, so nothing ran"),
          null);
    }

    List<String> approvedStamps = stamped == null ? null : stamped.taken();
    CallStash stash = new CallStash(undo, decisionRow.seq());
    ToolContext ctx = new ToolContext(
        c.paths(),
        c.policy().scope(),
        call.progress(),
        c.destructive(),
        stash,
        false,
        decision.equals(Decision.CONFIRMED),
        byPointer(c.paths(), approvedStamps),
        !taintOf(call.caller()).isEmpty(),
        source -> taint.add(call.caller().conversation(), source));
    ToolResult outcome;
    String summary;
    try {
      // The files were checked against the approval before the decision row was written, which
      // may wait for the disk: checked again, the tool opens them a moment after.
      if (approvedStamps != null
          && !FileStamp.allMatch(
              approvedStamps, stampsAgain(tool, call.args(), c.paths(), approvedStamps)))
        throw new ToolFailure(
            ToolErrorCodes.TOKEN_MISMATCH,
            "what this call acts on (a file, an event) changed while it was being approved and"
                + " recorded, so it did not run: it needs approving again");
      // Taint first: whatever the tool brings back — its result or only an error quoting what it
      // met (a page's redirect, a file's name) — the model has read it.
      tool.taintSource(call.args(), ctx)
          .ifPresent(source -> taint.add(call.caller().conversation(), source));
      JsonNode value =
          runner.run(runKey(call.caller().connection(), call.callId()), tool, call.args(), ctx);
      long size = JsonSize.estimate(value);
      if (size > Tool.MAX_RESULT_BYTES) {
        throw new ToolFailure(
            ToolErrorCodes.TOO_LARGE,
            String.format(
                java.util.Locale.ROOT,
                "the result is %.1f MB; the limit is %d MB",
                size / 1048576.0,
                Tool.MAX_RESULT_BYTES >> 20));
      }
      outcome = ToolResult.success(value, null);
      summary = tool.summarize(call.args(), value);
    } catch (ToolFailure f) {
      outcome = ToolResult.failure(f.error(), null);
      summary = f.error().message();
    } catch (RuntimeException e) {
      // A tool's own step around its run (where its input came from, its summary) that breaks
      // still ends the call with its completion row.
      LOG.log(Level.WARNING, tool.name() + " failed around its run", e);
      outcome = ToolResult.failure(
          ToolError.of(
              ToolErrorCodes.INTERNAL,
              tool.name() + " failed inside Steward (" + e.getClass().getSimpleName() + ")"),
          null);
      summary = "failed inside Steward (" + e.getClass().getSimpleName() + ")";
    }
    summary += stash.settle();
    Instant ended = clock.instant();
    Decision finalDecision = completed(decision, outcome);
    AuditMeta meta = new AuditMeta(
        Long.toString(decisionRow.seq()),
        finalDecision.wire(),
        decisionRow.entry().startedAt(),
        ended,
        summary);
    try {
      audit.record(entry(
          AuditKind.COMPLETION,
          call,
          tool,
          c,
          preview,
          finalDecision,
          completedReason(reason, finalDecision),
          tokenId,
          outcome.ok() ? Outcome.OK : Outcome.ERROR,
          outcome.errorCode(),
          summary,
          started,
          ended));
    } catch (AuditUnavailableException e) {
      LOG.log(Level.SEVERE, "audit: completion row of call " + call.callId() + " not written", e);
    }
    ToolResult result = outcome.withAudit(meta);
    publish(call, result);
    return result;
  }

  /**
   * The decision a completion row records: the call's own, or blocked when the gate refused it at
   * its last look, after the decision row (a file changed, a link was swapped, a redirect left the
   * scope) — so the audit panel's blocked filter shows it beside the calls refused before they ran.
   */
  static Decision completed(Decision decided, ToolResult outcome) {
    return ToolErrorCodes.isRefusal(outcome.errorCode()) ? Decision.BLOCKED : decided;
  }

  /** The reason a completion row gives: the decision's, and that the gate refused it after. */
  static String completedReason(String decided, Decision completed) {
    return completed == Decision.BLOCKED ? decided + ", then refused as it ran" : decided;
  }

  // ---- undo --------------------------------------------------------------------------------

  /**
   * {@code tool.undo} (ui role): puts back what the call at {@code auditId} replaced. The undo is
   * itself a call in the log — a decision row before, a completion row after.
   */
  public ToolResult undo(String auditId) {
    clientCall.run();
    String callId = "undo-" + java.util.UUID.randomUUID();
    JsonNode args = Json.object().put("audit_id", auditId);
    CallRequest call = new CallRequest(
        "undo-" + auditId, callId, UNDO, args, null, null, dev.steward.protocol.method.Role.UI);
    Instant started = clock.instant();
    long id;
    try {
      id = Long.parseLong(auditId);
    } catch (NumberFormatException e) {
      return refuse(
          call,
          null,
          started,
          new Refusal(
              ToolErrorCodes.VALIDATION_ERROR,
              "audit_id \"" + auditId + "\" is not one this service gave out",
              "/audit_id"));
    }
    String hash = CanonicalJson.sha256(args);
    ChainedRow decisionRow;
    try {
      decisionRow = audit.record(new AuditEntry(
          AuditKind.DECISION,
          call.traceId(),
          callId,
          UNDO,
          hash,
          args.toString(),
          Decision.CONFIRMED,
          "undo requested by the user",
          null,
          null,
          null,
          null,
          started,
          null));
    } catch (AuditUnavailableException e) {
      return ToolResult.failure(
          ToolError.of(ToolErrorCodes.INTERNAL, "the audit log is unavailable, so nothing ran"),
          null);
    }
    ToolResult outcome;
    String summary;
    try {
      JsonNode value = undoCall(id);
      outcome = ToolResult.success(value, null);
      summary = "undid row " + auditId + " (" + value.path("tool").asText() + ")";
    } catch (ToolFailure f) {
      outcome = ToolResult.failure(f.error(), null);
      summary = f.error().message();
    } catch (RuntimeException e) {
      // The completion row is written all the same: an undo that broke is in the log.
      LOG.log(Level.WARNING, "undo of row " + auditId + " failed", e);
      ToolError error = ToolError.of(
          ToolErrorCodes.INTERNAL, "the undo failed (" + e.getClass().getSimpleName() + ")");
      outcome = ToolResult.failure(error, null);
      summary = error.message();
    }
    Instant ended = clock.instant();
    Decision finalDecision = completed(Decision.CONFIRMED, outcome);
    audit.recordQuietly(new AuditEntry(
        AuditKind.COMPLETION,
        call.traceId(),
        callId,
        UNDO,
        hash,
        args.toString(),
        finalDecision,
        completedReason("undo requested by the user", finalDecision),
        null,
        outcome.ok() ? Outcome.OK : Outcome.ERROR,
        outcome.errorCode(),
        summary,
        started,
        ended));
    ToolResult result = outcome.withAudit(new AuditMeta(
        Long.toString(decisionRow.seq()),
        finalDecision.wire(),
        decisionRow.entry().startedAt(),
        ended,
        summary));
    publish(call, result);
    return result;
  }

  /** Asks the tool that made the call at {@code auditId} to put back what it kept, then marks the call undone. */
  private JsonNode undoCall(long auditId) throws ToolFailure {
    UndoStore.Undoing undoing = undo.undoing(auditId)
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.CONFLICT,
            "audit row " + auditId + " is being undone already",
            "/audit_id",
            null));
    try (undoing) {
      return undoHeld(auditId);
    }
  }

  /** {@link #undoCall}, its folder kept from the cap and from a second undo meanwhile. */
  private JsonNode undoHeld(long auditId) throws ToolFailure {
    UndoRecord record;
    try {
      record = undo.load(auditId)
          .orElseThrow(() -> new ToolFailure(
              ToolErrorCodes.NOT_FOUND,
              "audit row " + auditId + " has nothing to undo (or its undo data expired)",
              "/audit_id",
              null));
    } catch (java.io.IOException e) {
      throw new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "cannot read the undo data of row " + auditId + ": " + e.getMessage());
    }
    if (record.undone()) {
      throw new ToolFailure(
          ToolErrorCodes.ALREADY_EXISTS,
          "audit row " + auditId + " was already undone",
          "/audit_id",
          null);
    }
    Tool tool = tools
        .find(record.tool())
        .orElseThrow(() -> new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            record.tool() + " is not offered any more, so row " + auditId + " cannot be undone",
            "/audit_id",
            null));
    JsonNode restored =
        tool.undo(record, new UndoContext(policies.current().scope(), undo.stashPath(auditId, "")));
    try {
      undo.save(auditId, record.asUndone());
    } catch (java.io.IOException e) {
      LOG.log(Level.WARNING, "undo: row " + auditId + " was undone but not marked so", e);
    }
    com.fasterxml.jackson.databind.node.ObjectNode result = Json.object();
    result.put("audit_id", Long.toString(auditId));
    result.put("tool", record.tool());
    result.set("restored", restored);
    return result;
  }

  /** {@code look}: a call that needs a click is looked at first ({@link Tool#checkNow}). */
  private Checked check(Tool tool, Caller caller, JsonNode args, boolean look) throws Refusal {
    Policy policy = policies.current();
    Optional<String> unavailable = tool.unavailable();
    if (unavailable.isPresent())
      throw new Refusal(ToolErrorCodes.UNAVAILABLE, unavailable.get(), "/tool");
    if (policy.turnedOff(tool.name()))
      throw new Refusal(
          ToolErrorCodes.UNAVAILABLE,
          tool.name() + " is turned off (Settings → Tools); it runs again once turned on",
          "/tool");
    schemas.check(tool, args);
    asking(tool, "check these arguments", ToolErrorCodes.VALIDATION_ERROR, () -> {
      tool.checkArgs(args);
      return true;
    });
    Map<String, ResolvedPath> paths = ScopeCheck.resolve(tool, args, policy);
    List<String> hostsToConfirm = ScopeCheck.hostsToConfirm(tool, args, policy);
    ToolContext forCheck = ToolContext.forCheck(paths, policy.scope());
    // A tool that cannot judge a call (what it read was malformed) refuses it, in the log.
    boolean destructive = asking(
        tool,
        "judge this call",
        ToolErrorCodes.EXECUTION_ERROR,
        () -> tool.destructive(args, forCheck));
    Risk risk = asking(
        tool,
        "judge this call",
        ToolErrorCodes.EXECUTION_ERROR,
        () -> higher(tool.definition().risk(), tool.risk(args, forCheck)));
    Requirement req = ConfirmationRule.evaluate(
        tool,
        risk,
        args,
        paths.values(),
        hostsToConfirm,
        destructive,
        taintOf(caller),
        policy,
        clock.instant(),
        () -> undo.pushesOutSince(
            UndoRoom.replaced(paths.values()), clock.instant().minus(UndoStore.KEPT_AT_LEAST)));
    if (look && req.needsToken()) {
      asking(tool, "look at this call", ToolErrorCodes.EXECUTION_ERROR, () -> {
        tool.checkNow(args, forCheck);
        return true;
      });
    }
    return new Checked(tool, CanonicalJson.sha256(args), paths, destructive, risk, req, policy);
  }

  /** The call is about to be shown for the user's click: its tool may start what its run needs. */
  private static void prepare(Tool tool) {
    try {
      tool.prepare();
    } catch (RuntimeException e) {
      LOG.log(Level.FINE, tool.name() + " could not prepare while the call waits for a click", e);
    }
  }

  /** A tool's own step in a call's check. */
  @FunctionalInterface
  private interface ToolStep<T> {
    T call() throws ToolFailure;
  }

  /**
   * A tool's own step in a call's check ({@code doing} it): its failure is a refusal, and so is
   * a bug in it ({@code code}), logged, so that the call still has its row.
   */
  private static <T> T asking(Tool tool, String doing, String code, ToolStep<T> step)
      throws Refusal {
    try {
      return step.call();
    } catch (ToolFailure f) {
      throw new Refusal(f.error().code(), f.error().message(), f.error().field());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, tool.name() + " could not " + doing, e);
      throw new Refusal(
          code,
          tool.name() + " could not " + doing + " (" + e.getClass().getSimpleName() + ")",
          "/args");
    }
  }

  /**
   * The source an MCP client's conversation is tainted by from its first call: the client's own
   * context, where anything it read with tools of its own (a page, a mail, a file) may have turned
   * it, is out of Steward's sight (SPEC §10; ADR 14).
   */
  static final String MCP_CONTEXT =
      "the MCP client's own context (what it read elsewhere is out of Steward's sight)";

  /**
   * The source a call the model wrote among the words of its answer is judged by: the model may be
   * quoting a call it read (a pasted mail, a file) rather than making one (ADR 42).
   */
  static final String IN_PROSE =
      "a call the assistant wrote among the words of its answer, where it may be quoting one it"
          + " read";

  /** Where untrusted content in the caller's conversation came from, as the rules count it. */
  private List<String> taintOf(Caller caller) {
    List<String> kept = taint.of(caller.conversation());
    if (!caller.mcpConversation() && !caller.inProse()) return kept;
    List<String> all = new java.util.ArrayList<>(kept.size() + 2);
    if (caller.mcpConversation()) all.add(MCP_CONTEXT);
    if (caller.inProse()) all.add(IN_PROSE);
    all.addAll(kept);
    return all;
  }

  /**
   * The risk of this call (a token minted for it lives as long as that risk allows): the
   * definition's, raised by the tool for these arguments. Paths are not resolved for it: a tool
   * judges its risk by what the call would show or reach, not by where a path leads.
   */
  public Risk risk(Tool tool, JsonNode args) {
    try {
      return higher(
          tool.definition().risk(),
          tool.risk(args, ToolContext.forCheck(Map.of(), policies.current().scope())));
    } catch (RuntimeException e) {
      return Risk.HIGH;
    }
  }

  /**
   * What a token for exactly a call binds besides its arguments, as the dialog showed it: the real
   * paths it would touch now, in the order of its path arguments, and what each names ({@link
   * FileStamp}).
   */
  public record Bound(List<String> targets, List<String> fingerprints) {}

  /**
   * The call's {@link Bound} now. A call that cannot be resolved now binds to a mark no resolved
   * call matches.
   */
  public Bound bound(Tool tool, JsonNode args) {
    try {
      Map<String, ResolvedPath> paths = ScopeCheck.resolve(tool, args, policies.current());
      return new Bound(reals(paths), stamps(tool, args, paths));
    } catch (Refusal | RuntimeException e) {
      return new Bound(List.of(UNRESOLVED), List.of(UNRESOLVED));
    }
  }

  /**
   * Each resolved path's stamp, as the call uses it, in the order of its path arguments; then
   * those of what it acts on beyond its paths ({@link Tool#versions}).
   */
  private static List<String> stamps(Tool tool, JsonNode args, Map<String, ResolvedPath> paths) {
    List<String> out = new ArrayList<>(paths.size());
    for (PathUse use : tool.paths(args)) {
      ResolvedPath p = paths.get(use.pointer());
      if (p != null) out.add(FileStamp.of(p.real(), use.access()));
    }
    out.addAll(versions(tool, args));
    return out;
  }

  /** {@link Tool#versions}; one that cannot be read matches nothing, so nothing is approved on it. */
  private static List<String> versions(Tool tool, JsonNode args) {
    try {
      return tool.versions(args);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, tool.name() + " could not stamp what a call acts on", e);
      return List.of(FileStamp.unmatched());
    }
  }

  /**
   * {@link #stamps} read again after the decision row, but for a folder taken away by a tool that
   * looks at it again once taken ({@link Tool#rechecksTakenFolders}): its approved stamp stands,
   * and the tool's later look decides.
   */
  private static List<String> stampsAgain(
      Tool tool, JsonNode args, Map<String, ResolvedPath> paths, List<String> approved) {
    if (!tool.rechecksTakenFolders()) return stamps(tool, args, paths);
    List<String> out = new ArrayList<>(paths.size());
    for (PathUse use : tool.paths(args)) {
      ResolvedPath p = paths.get(use.pointer());
      if (p == null) continue;
      String was = out.size() < approved.size() ? approved.get(out.size()) : null;
      out.add(was != null && FileStamp.isTree(was) ? was : FileStamp.of(p.real(), use.access()));
    }
    out.addAll(versions(tool, args));
    return out;
  }

  /**
   * What a row adds, after who asked, for each path that reaches another place than it names,
   * through a link: the place reached, then the path as asked, each quoted and cut (a row's reason
   * is cut at its end, and a path is the client's own words).
   */
  private static String throughLinks(Map<String, ResolvedPath> paths) {
    StringBuilder b = new StringBuilder();
    for (ResolvedPath p : paths.values()) {
      if (!p.throughLink()) continue;
      b.append(b.length() == 0 ? " — reaches “" : "; reaches “")
          .append(shownPath(p.real().toString()))
          .append("” through a link (asked as “")
          .append(shownPath(p.requested()))
          .append("”)");
    }
    return b.toString();
  }

  private static String shownPath(String path) {
    int count = path.codePointCount(0, path.length());
    if (count <= 160) return path;
    return path.substring(0, path.offsetByCodePoints(0, 80))
        + "…"
        + path.substring(path.offsetByCodePoints(0, count - 79));
  }

  /** A call's resolved paths as the wire and the token records give them, in argument order. */
  private static List<String> reals(Map<String, ResolvedPath> paths) {
    return paths.values().stream().map(p -> p.real().toString()).toList();
  }

  /** The target of a call that could not be resolved when it was approved. */
  static final String UNRESOLVED = "(not resolvable when approved)";

  /** A tool may raise a call's risk above its definition's, never lower it. */
  private static Risk higher(Risk a, Risk b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  /**
   * A call's stamps, read at most once and only when its token asks for them: the token's check
   * reads them, and the second look before the tool runs compares with what it read.
   */
  private static final class Stamped implements java.util.function.Supplier<List<String>> {
    private final java.util.function.Supplier<List<String>> read;
    private @Nullable List<String> taken;

    Stamped(java.util.function.Supplier<List<String>> read) {
      this.read = read;
    }

    @Override
    public synchronized List<String> get() {
      List<String> t = taken;
      if (t == null) taken = t = read.get();
      return t;
    }

    synchronized @Nullable List<String> taken() {
      return taken;
    }
  }

  /**
   * The stamps a call was checked with, by argument pointer ({@link #stamps} gives the paths' in
   * the order of the resolved paths, then the versions, which name their own); none when not
   * stamped.
   */
  private static Map<String, String> byPointer(
      Map<String, ResolvedPath> paths, @Nullable List<String> stamps) {
    if (stamps == null) return Map.of();
    Map<String, String> out = new java.util.HashMap<>();
    java.util.Iterator<String> stamp = stamps.iterator();
    for (String pointer : paths.keySet()) if (stamp.hasNext()) out.put(pointer, stamp.next());
    stamp.forEachRemaining(s -> {
      String pointer = VersionStamp.pointer(s);
      if (pointer != null) out.put(pointer, s);
    });
    return out;
  }

  private String consumeToken(CallRequest call, Checked c, Stamped stamped) throws Refusal {
    List<java.nio.file.Path> paths = new ArrayList<>();
    c.paths().values().forEach(p -> paths.add(p.real()));
    try {
      return tokens.consume(
          java.util.Objects.requireNonNull(
              call.confirmToken(), "asked only for a call with a token"),
          new ConfirmTokens.CallCheck(
              call.traceId(), c.tool().name(), c.argsHash(), c.risk(), paths, stamped));
    } catch (TokenRefused e) {
      throw new Refusal(e.code(), e.getMessage(), "/confirm_token");
    }
  }

  private ToolResult refuse(
      CallRequest call, @Nullable Tool tool, @Nullable Instant started, Refusal r) {
    Instant start = started == null ? clock.instant() : started;
    Instant ended = clock.instant();
    String argsHash = safeHash(call.args());
    String preview = unkeptPreview(tool, call.args());
    AuditEntry e = new AuditEntry(
        AuditKind.DECISION,
        call.traceId(),
        call.callId(),
        call.tool(),
        argsHash,
        preview,
        Decision.BLOCKED,
        r.getMessage() + call.caller().askedBy(),
        null,
        Outcome.ERROR,
        r.error().code(),
        r.getMessage(),
        start,
        ended);
    AuditMeta meta = null;
    try {
      ChainedRow row = audit.record(e);
      meta = new AuditMeta(
          Long.toString(row.seq()), Decision.BLOCKED.wire(), row.entry().startedAt(), ended);
    } catch (AuditUnavailableException ex) {
      LOG.log(Level.SEVERE, "audit: a refusal was not logged", ex);
    }
    ToolResult result = ToolResult.failure(r.error(), meta);
    publish(call, result);
    return result;
  }

  /**
   * The longest whole kept for a call no one clicked for: such calls come as fast as a client sends
   * them, and each kept whole stays.
   */
  static final int MAX_WHOLE_UNCLICKED = 64 * 1024;

  /**
   * A row's argument preview for a call that runs, or that the user declined; when it had to be
   * cut, the whole redacted arguments are kept first (the preview ends with their hash), so that
   * nothing a call was given is hidden from the log — for a call no one clicked for, up to {@link
   * #MAX_WHOLE_UNCLICKED} characters, and the preview says when more was not kept.
   */
  private String preview(@Nullable Tool tool, JsonNode args, boolean clicked)
      throws AuditUnavailableException {
    ArgsPreview.Preview p = ArgsPreview.of(tool, args);
    String whole = p.whole();
    if (whole == null) return p.cut();
    if (!clicked && whole.length() > MAX_WHOLE_UNCLICKED)
      return p.notKept("over " + MAX_WHOLE_UNCLICKED + " for a call no one approved");
    return p.kept(audit.keepArgs(whole));
  }

  /**
   * The preview of a call that does not run (a preflight, a refusal): cut, its whole not kept — the
   * row's hash of the arguments binds them, and refusals cost a client nothing to send.
   */
  private static String unkeptPreview(@Nullable Tool tool, JsonNode args) {
    return ArgsPreview.of(tool, args).notKept("the call did not run");
  }

  private static AuditEntry entry(
      AuditKind kind,
      CallRequest call,
      Tool tool,
      Checked c,
      String preview,
      Decision decision,
      String reason,
      @Nullable String tokenId,
      @Nullable Outcome result,
      @Nullable String errorCode,
      @Nullable String summary,
      Instant started,
      @Nullable Instant ended) {
    return new AuditEntry(
        kind,
        call.traceId(),
        call.callId(),
        tool.name(),
        c.argsHash(),
        preview,
        decision,
        reason + call.caller().askedBy() + throughLinks(c.paths()),
        tokenId,
        result,
        errorCode,
        summary,
        started,
        ended);
  }

  private static void checkId(String id, String field) throws Refusal {
    if (id == null || !ID.matcher(id).matches()) {
      throw new Refusal(
          ToolErrorCodes.VALIDATION_ERROR,
          field.substring(1) + " must be 1–128 characters of letters, digits and ._:@/+=-",
          field);
    }
  }

  private void publish(CallRequest call, ToolResult result) {
    ToolResults note = new ToolResults(call.traceId(), call.callId(), call.tool(), result);
    for (Consumer<ToolResults> l : resultListeners) {
      try {
        l.accept(note);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "tool.results listener failed", e);
      }
    }
  }

  /**
   * Cancels a call of the connection that asks (no client can stop another's calls): a running one
   * stops; one not begun yet (its cancel overtook it) is stopped as it begins.
   */
  public boolean cancel(String connection, String callId) {
    return runner.cancel(runKey(connection, callId));
  }

  /** Whether the connection cancelled this call before it began. */
  public boolean cancelledEarly(String connection, String callId) {
    return runner.cancelledEarly(runKey(connection, callId));
  }
  /**
   * The checks of a call that change nothing — its schema and the tool's own, its hash, its audit preview — run for
   * the warm-up (issue 23), which runs its calls on the tools itself: no decision, no row. False
   * when the arguments fail the schema (the warm-up then leaves the call out).
   */
  public boolean warmUp(Tool tool, JsonNode args) {
    try {
      schemas.check(tool, args);
      tool.checkArgs(args);
    } catch (Refusal | ToolFailure r) {
      LOG.warning(
          () -> "a warm-up call of " + tool.name() + " fails its checks: " + r.getMessage());
      return false;
    }
    safeHash(args);
    ArgsPreview.of(tool, args);
    return true;
  }

  /**
   * What follows a warm-up call's run that changes nothing, as it follows a client's: the answer's
   * size and summary, its two rows made and sealed but written nowhere ({@link AuditLog#rehearse}),
   * and the answer with its audit meta — which the warm-up encodes as a client's would be.
   */
  public ToolResult warmUpAnswer(Tool tool, JsonNode args, JsonNode value) {
    Instant started = clock.instant();
    String preview = ArgsPreview.of(tool, args).notKept("a warm-up call");
    String hash = safeHash(args);
    JsonSize.estimate(value);
    String summary = tool.summarize(args, value);
    Instant ended = clock.instant();
    String reason = "allowed by policy";
    // The second row's reason names a client as an MCP call's rows do, with the one character in
    // them outside ASCII: a row's bytes are made by another path then, which a client's first MCP
    // calls would otherwise meet in the interpreter.
    String asked = reason + WARM_UP_CLIENT.askedBy();
    AuditLog.rehearse(List.of(
        new AuditEntry(
            AuditKind.DECISION,
            WARM_UP,
            WARM_UP,
            tool.name(),
            hash,
            preview,
            Decision.ALLOWED,
            reason,
            null,
            null,
            null,
            null,
            started,
            null),
        new AuditEntry(
            AuditKind.COMPLETION,
            WARM_UP,
            WARM_UP,
            tool.name(),
            hash,
            preview,
            Decision.ALLOWED,
            asked,
            null,
            Outcome.OK,
            null,
            summary,
            started,
            ended)));
    return ToolResult.success(value, null)
        .withAudit(new AuditMeta("1", Decision.ALLOWED.wire(), started, ended, summary));
  }

  /** Whether a client's tool call is running now (the warm-up waits while one does). */
  public boolean busy() {
    return runner.busy();
  }

  /**
   * {@code listener} is told each time a client's call comes to the gate (its checks, or its look
   * before a dialog) and again as its tool begins to run, once it counts as {@link #busy}: the
   * first call's checks, still in the interpreter, take tens of milliseconds of the CPU too.
   */
  public void onClientCall(Runnable listener) {
    clientCall = listener;
    runner.onStart(listener);
  }

  private static String runKey(String connection, String callId) {
    return connection + "\n" + callId;
  }

  /** The arguments' hash, or the hash of their text where a value has no canonical form (they are refused anyway). */
  private static String safeHash(JsonNode args) {
    try {
      return CanonicalJson.sha256(args);
    } catch (RuntimeException e) {
      return CanonicalJson.sha256(Json.object().put("unhashable", args.toString()));
    }
  }

  @Override
  public void close() {
    runner.close();
    taint.close();
  }
}
