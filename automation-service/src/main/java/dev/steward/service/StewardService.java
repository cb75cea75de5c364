package dev.steward.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.jsonrpc.RpcError;
import dev.steward.protocol.jsonrpc.RpcException;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.audit.AuditEntry;
import dev.steward.service.audit.AuditLog;
import dev.steward.service.audit.Durability;
import dev.steward.service.config.Secrets;
import dev.steward.service.config.SecretsFile;
import dev.steward.service.config.StewardHome;
import dev.steward.service.gate.Gate;
import dev.steward.service.gate.Taint;
import dev.steward.service.policy.PackSettingsRules;
import dev.steward.service.policy.PolicyError;
import dev.steward.service.policy.PolicyStore;
import dev.steward.service.rpc.Dispatcher;
import dev.steward.service.rpc.Limits;
import dev.steward.service.rpc.ServiceMethods;
import dev.steward.service.rpc.Session;
import dev.steward.service.scope.HostResolver;
import dev.steward.service.scope.PathScope;
import dev.steward.service.token.ConfirmTokens;
import dev.steward.service.tools.BrowserReturns;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolPack;
import dev.steward.service.tools.ToolPacks;
import dev.steward.service.tools.ToolRegistry;
import dev.steward.service.transport.HandshakeGuard;
import dev.steward.service.transport.RpcServer;
import dev.steward.service.undo.UndoStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/** The service assembled: home, secrets, policy, audit log, tokens, gate, server. */
public final class StewardService implements AutoCloseable {

  /** Start-up settings. */
  /** Start-up settings; {@code warmupRounds} is how many rounds the idle warm-up runs (0: none). */
  public record Options(
      int port,
      Durability durability,
      Limits limits,
      Clock clock,
      HostResolver resolver,
      int warmupRounds) {
    public static Options defaults() {
      return new Options(
          0,
          Durability.PROCESS,
          Limits.defaults(),
          Clock.systemUTC(),
          HostResolver.system(),
          Warmup.DEFAULT_ROUNDS);
    }

    public Options withPort(int value) {
      return new Options(value, durability, limits, clock, resolver, warmupRounds);
    }

    public Options withClock(Clock value) {
      return new Options(port, durability, limits, value, resolver, warmupRounds);
    }

    public Options withLimits(Limits value) {
      return new Options(port, durability, value, clock, resolver, warmupRounds);
    }

    public Options withResolver(HostResolver value) {
      return new Options(port, durability, limits, clock, value, warmupRounds);
    }

    public Options withDurability(Durability value) {
      return new Options(port, value, limits, clock, resolver, warmupRounds);
    }

    public Options withWarmupRounds(int value) {
      return new Options(port, durability, limits, clock, resolver, value);
    }
  }

  private final StewardHome home;
  private final AuditLog audit;
  private final Gate gate;
  private final RpcServer server;
  private final Secrets secrets;
  private final List<ToolPack> packs;
  private volatile @org.jspecify.annotations.Nullable Warmup warmup;

  private StewardService(
      StewardHome home,
      AuditLog audit,
      Gate gate,
      RpcServer server,
      Secrets secrets,
      List<ToolPack> packs) {
    this.home = home;
    this.audit = audit;
    this.gate = gate;
    this.server = server;
    this.secrets = secrets;
    this.packs = packs;
  }

  public static StewardService start(StewardHome home, Options options) throws Exception {
    home.create();
    // Opening the H2 log is the slowest step of a start; it runs while the tools and the policy
    // are set up on this thread.
    // The secrets first (a few small files): the audit log seals its rows with one of them.
    Secrets secrets = Secrets.loadOrCreate(home);
    CompletableFuture<AuditLog> opening = inBackground(
        "audit-open",
        () -> AuditLog.open(
            home.data(), options.durability(), secrets.auditKey(), Secrets.auditHeadFile(home)));
    // Jetty starts listening meanwhile too; it answers handshakes once the dispatcher is ready.
    CompletableFuture<Dispatcher> dispatching = new CompletableFuture<>();
    BrowserReturns returns = new BrowserReturns();
    CompletableFuture<RpcServer> serving = inBackground(
        "rpc-start",
        () -> RpcServer.start(
            options.port(), new HandshakeGuard(secrets), dispatching, options.limits(), returns));
    // The packs' tools read the policy in force at each call; the store that holds it is loaded
    // below, once every tool is registered, so grants and overrides can name any of them.
    AtomicReference<PolicyStore> policyRef = new AtomicReference<>();
    List<Runnable> policyListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    // The window hears of changed tools once the server that reaches it is up.
    AtomicReference<@org.jspecify.annotations.Nullable Runnable> toolsChanged =
        new AtomicReference<>();
    SecretsFile packSecrets = new SecretsFile(home.config().resolve("secrets.json"));
    PackContext packContext = new PackContext(
        () -> java.util.Objects.requireNonNull(
                policyRef.get(), "the policy is loaded before any tool runs")
            .current()
            .document(),
        home.userHome(),
        home.data(),
        System.getenv(),
        options.resolver(),
        policyListeners::add,
        () -> {
          Runnable tell = toolsChanged.get();
          if (tell != null) tell.run();
        },
        List.of(home.config(), home.data(), home.run()),
        packSecrets,
        returns);
    List<ToolPack> packs = ToolPacks.load();
    ToolRegistry tools;
    PackSettingsRules packSettings;
    PolicyStore policies;
    try {
      tools = ToolPacks.registry(packs, packContext);
      packSettings = PackSettingsRules.of(ToolPacks.settings(packs));
      policies = PolicyStore.load(
          home, tools::covers, packSettings, ToolPacks.secretsApart(packs, packSecrets));
      policyRef.set(policies);
      policies.onChange(() -> policyListeners.forEach(Runnable::run));
    } catch (PolicyError | IllegalStateException e) {
      closeWhenOpen(opening);
      serving.thenAccept(RpcServer::close);
      ToolPacks.close(packs);
      if (e instanceof IllegalStateException packMistake) throw packMistake;
      throw new IOException(home.policyFile() + " cannot be used: " + e.getMessage(), e);
    }
    createWorkspace(policies, home);
    AuditLog audit = awaitOpen(opening);
    try {
      ConfirmTokens tokens =
          new ConfirmTokens(secrets.tokenKey(), options.clock(), audit.tokenRecords());
      tokens.restore(from -> audit.tokenUses(from).stream()
          .filter(r -> r.entry().tokenId() != null
              && r.entry().tool() != null
              && r.entry().argsHash() != null)
          .map(r -> new ConfirmTokens.UsesSource.Use(
              java.util.Objects.requireNonNull(r.entry().tokenId()),
              java.util.Objects.requireNonNull(r.entry().tool()),
              java.util.Objects.requireNonNull(r.entry().argsHash())))
          .toList());
      UndoStore undo =
          new UndoStore(home.data().resolve("undo"), UndoStore.DEFAULT_CAP_BYTES, options.clock());
      Gate gate = new Gate(
          tools,
          policies,
          tokens,
          audit,
          undo,
          Taint.persistent(home.data().resolve("taint.log")),
          options.resolver(),
          options.clock());
      Dispatcher dispatcher =
          new Dispatcher((session, error) -> logRefusal(audit, options.clock(), session, error));
      ServiceMethods methods = new ServiceMethods(
          tools, gate, tokens, audit, policies, options.limits(), options.clock());
      methods.registerOn(dispatcher);
      methods.registerSecrets(dispatcher, packSecrets);
      methods.registerPackMethods(
          dispatcher, packs.stream().flatMap(p -> p.methods().stream()).toList());
      methods.registerPackSettings(dispatcher, packSettings.sections());
      returns.recordWith((act, said) -> {
        try {
          methods.recordUserAct(act, said);
          return true;
        } catch (RpcException e) {
          return false;
        }
      });
      dispatching.complete(dispatcher);
      RpcServer server = await(serving, "start the WebSocket server");
      gate.onResult(server::publish);
      methods.sendApprovalsTo(server::toWindow);
      toolsChanged.set(() -> server.toWindowAndBridges(
          new dev.steward.protocol.jsonrpc.Notification(Methods.TOOLS_CHANGED, Json.object())));
      server.onConnectionClosed(methods::connectionClosed);
      StewardService service = new StewardService(home, audit, gate, server, secrets, packs);
      service.writeServiceInfo();
      // Ready: what a first call would otherwise wait for is prepared now, off the start's path.
      inBackground("schema-compile", () -> {
        gate.compileSchemas();
        return Boolean.TRUE;
      });
      for (ToolPack pack : packs) pack.start();
      Warmup warmup = Warmup.create(
          packs,
          tools,
          home.data().resolve("warmup"),
          home.userHome(),
          options.warmupRounds(),
          new Warmup.Checks() {
            @Override
            public boolean run(Tool tool, JsonNode args) {
              return gate.warmUp(tool, args);
            }

            @Override
            public ToolResult answered(Tool tool, JsonNode args, JsonNode value) {
              return gate.warmUpAnswer(tool, args, value);
            }
          },
          gate::busy,
          Warmup.QUIET);
      // Told of clients' calls before it begins, so that none comes unseen.
      gate.onClientCall(warmup::yieldToClient);
      service.warmup = warmup.start();
      return service;
    } catch (Exception e) {
      serving.thenAccept(RpcServer::close);
      ToolPacks.close(packs);
      audit.close();
      throw e;
    }
  }

  private interface Work<T> {
    T run() throws Exception;
  }

  /** Runs a slow, independent part of the start on a thread of its own. */
  private static <T> CompletableFuture<T> inBackground(String name, Work<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    DaemonThreads.start(name, () -> {
      try {
        result.complete(work.run());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  private static <T> T await(CompletableFuture<T> future, String what) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting to " + what, e);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof IOException io) throw io;
      if (cause instanceof RuntimeException re) throw re;
      throw new IOException("cannot " + what + ": " + cause.getMessage(), cause);
    }
  }

  private static AuditLog awaitOpen(CompletableFuture<AuditLog> opening) throws IOException {
    try {
      return await(opening, "open the audit log");
    } catch (IOException | RuntimeException e) {
      closeWhenOpen(opening);
      throw e;
    }
  }

  /** A start that failed elsewhere still closes the log once it is open (H2 holds a file lock). */
  private static void closeWhenOpen(CompletableFuture<AuditLog> opening) {
    opening.thenAccept(AuditLog::close);
  }

  /** The first read-write root is the workspace; make sure it exists so relative paths work. */
  private static void createWorkspace(PolicyStore policies, StewardHome home) {
    policies.current().document().paths().stream()
        .filter(r -> r.writable())
        .findFirst()
        .ifPresent(r -> {
          Path p = PathScope.expandRoot(r.root(), home.userHome());
          try {
            Files.createDirectories(p);
          } catch (IOException e) {
            // the scope check will say the folder is missing when a call needs it
          }
        });
  }

  private static void logRefusal(AuditLog audit, Clock clock, Session session, RpcError error) {
    // A protocol refusal changes nothing, so a failure to log it is reported, not fatal.
    audit.recordQuietly(new AuditEntry(
        AuditKind.PROTOCOL,
        null,
        null,
        null,
        null,
        null,
        Decision.BLOCKED,
        error.message(),
        null,
        Outcome.ERROR,
        Integer.toString(error.code()),
        session.role().wire() + " connection " + session.id(),
        clock.instant(),
        clock.instant()));
  }

  private void writeServiceInfo() throws IOException {
    ObjectNode info = Json.object();
    info.put("port", server.port());
    info.put("pid", ProcessHandle.current().pid());
    info.put("version", ServiceMethods.SERVICE_VERSION);
    AtomicFiles.write(
        home.serviceInfoFile(), info.toString().getBytes(StandardCharsets.UTF_8), true);
  }

  public int port() {
    return server.port();
  }

  public String secret(Role role) {
    return secrets.secret(role);
  }

  /** The MCP sessions over Streamable HTTP that the service keeps a conversation for. */
  public int mcpHttpSessions() {
    return server.mcpSessions();
  }

  public StewardHome home() {
    return home;
  }

  public AuditLog audit() {
    return audit;
  }

  /** Completes once the idle warm-up is over, with how many calls it ran (-1: it was stopped). */
  java.util.concurrent.CompletableFuture<Integer> warmedUp() {
    Warmup w = warmup;
    return w == null ? java.util.concurrent.CompletableFuture.completedFuture(0) : w.finished();
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(home.serviceInfoFile());
    } catch (IOException e) {
      // a stale service.json is detected by its pid
    }
    Warmup w = warmup;
    if (w != null) w.close();
    server.close();
    gate.close();
    ToolPacks.close(packs);
    audit.close();
  }
}
