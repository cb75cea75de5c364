package dev.steward.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.config.StewardHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A real service on loopback for a test: its own STEWARD_HOME, a read-write root {@code root}, a
 * read-only root {@code ro}, and siblings outside the scope that look like the root.
 */
public final class TestService implements AutoCloseable {

  public final Path base;
  public final Path root;
  public final Path ro;
  public final Path outside;
  public final StewardHome home;
  public final MutableClock clock = new MutableClock();
  private StewardService service;
  private dev.steward.service.rpc.Limits limits;

  /** Every host name the service looked up, in order. */
  public final List<String> lookups = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Names a test answers itself (each lookup asks again: a name can change its answer); others go to the system. */
  public final Map<String, java.util.function.Supplier<java.net.InetAddress[]>> names =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The idle warm-up's rounds: none unless a test asks (it would compete with the tests' calls). */
  private int warmupRounds;

  private StewardService.Options options() {
    return StewardService.Options.defaults()
        .withWarmupRounds(warmupRounds)
        .withClock(clock)
        .withLimits(limits)
        .withResolver(host -> {
          lookups.add(host);
          var answer = names.get(host);
          return answer != null ? answer.get() : java.net.InetAddress.getAllByName(host);
        });
  }

  private final List<StewardClient> clients = new ArrayList<>();

  private TestService(Path base) {
    this.base = base;
    this.root = base.resolve("root");
    this.ro = base.resolve("ro");
    this.outside = base.resolve("outside");
    this.home = StewardHome.under(base.resolve("home"), base.resolve("userhome"));
  }

  public static TestService start() {
    return start(p -> p);
  }

  public static TestService start(UnaryOperator<PolicyDocument> policy) {
    return start(policy, dev.steward.service.rpc.Limits.defaults());
  }

  public static TestService start(
      UnaryOperator<PolicyDocument> policy, dev.steward.service.rpc.Limits limits) {
    return start(policy, limits, 0);
  }

  /** A service that runs its idle warm-up for {@code warmupRounds} rounds after it starts. */
  public static TestService startWarmingUp(int warmupRounds) {
    return start(p -> p, dev.steward.service.rpc.Limits.defaults(), warmupRounds);
  }

  private static TestService start(
      UnaryOperator<PolicyDocument> policy,
      dev.steward.service.rpc.Limits limits,
      int warmupRounds) {
    try {
      Path base = Files.createTempDirectory("steward-it-").toRealPath();
      TestService t = new TestService(base);
      t.warmupRounds = warmupRounds;
      for (Path p : List.of(
          t.root,
          t.ro,
          t.outside,
          base.resolve("root2"),
          base.resolve("root-evil"),
          base.resolve("root.bak"),
          base.resolve("userhome"))) {
        Files.createDirectories(p);
      }
      PolicyDocument doc = policy.apply(new PolicyDocument(
          List.of(
              new PolicyDocument.PathRoot(t.root.toString(), "read_write"),
              new PolicyDocument.PathRoot(t.ro.toString(), "read")),
          List.of(),
          new PolicyDocument.Hosts(List.of(), false),
          List.of(),
          Map.of(),
          List.of()));
      Files.createDirectories(t.home.config());
      Files.writeString(
          t.home.policyFile(),
          Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(doc));
      t.limits = limits;
      t.service = StewardService.start(t.home, t.options());
      return t;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test service", e);
    }
  }

  /** Stops the service and starts it again on the same home (a restart). */
  public void restart() throws Exception {
    clients.forEach(StewardClient::close);
    clients.clear();
    service.close();
    service = StewardService.start(home, options());
  }

  public void stop() {
    clients.forEach(StewardClient::close);
    clients.clear();
    service.close();
  }

  public StewardService service() {
    return service;
  }

  public int port() {
    return service.port();
  }

  public String secret(Role role) {
    return service.secret(role);
  }

  public StewardClient client(Role role) {
    StewardClient c =
        StewardClient.connect(Endpoint.loopback(service.port(), service.secret(role)));
    clients.add(c);
    return c;
  }

  public static String id() {
    return UUID.randomUUID().toString();
  }

  public static JsonNode args(Object... kv) {
    var node = Json.object();
    for (int i = 0; i < kv.length; i += 2) node.set((String) kv[i], Json.tree(kv[i + 1]));
    return node;
  }

  public static ToolResult exec(
      StewardClient c, String trace, String tool, JsonNode args, String token) {
    return c.execute(new Execute.Params(trace, id(), tool, args, token, null));
  }

  /** Runs a call the way the app does: preflight, a token from the ui when asked for, execute. */
  public static ToolResult execConfirmed(
      StewardClient ui, StewardClient agent, String tool, JsonNode args) {
    String trace = id();
    String token = agent.preflight(trace, tool, args).decision().equals("confirm")
        ? ui.grant(
                new Grant.Params(trace, List.of(new Grant.Call(tool, args)), null, null, 60, null))
            .confirmToken()
        : null;
    return exec(agent, trace, tool, args, token);
  }

  /** A call the user approved, in {@code conversation}: a token for exactly it, then the call. */
  public static ToolResult execApproved(
      StewardClient ui, StewardClient agent, String tool, JsonNode args, String conversation) {
    String trace = id();
    String token = ui.grant(
            new Grant.Params(trace, List.of(new Grant.Call(tool, args)), null, null, 60, null))
        .confirmToken();
    return agent.execute(new Execute.Params(trace, id(), tool, args, token, null, conversation));
  }

  public static ToolResult exec(StewardClient c, String tool, JsonNode args) {
    return exec(c, id(), tool, args, null);
  }

  /** Every audit row of a call, oldest first. */
  public List<Audit.Row> rows(StewardClient ui, String callId) {
    Audit.QueryResult r =
        ui.call(Methods.AUDIT_QUERY, Map.of("text", callId, "limit", 100), Audit.QueryResult.class);
    List<Audit.Row> rows =
        new ArrayList<>(r.rows().stream().filter(x -> callId.equals(x.callId())).toList());
    rows.sort(Comparator.comparingLong(x -> Long.parseLong(x.auditId())));
    return rows;
  }

  public Audit.Row row(StewardClient ui, String auditId) {
    Audit.QueryResult r = ui.call(
        Methods.AUDIT_QUERY,
        Map.of("cursor", Long.toString(Long.parseLong(auditId) + 1), "limit", 1),
        Audit.QueryResult.class);
    return r.rows().get(0);
  }

  /** A listing of every file under the base folder with its content hash: "nothing changed". */
  public Map<String, String> snapshot() {
    try (Stream<Path> walk = Files.walk(base)) {
      var out = new java.util.TreeMap<String, String>();
      walk.filter(p -> !p.startsWith(home.data()) && !p.startsWith(home.run())).forEach(p -> {
        try {
          String v = Files.isSymbolicLink(p)
              ? "link:" + Files.readSymbolicLink(p)
              : Files.isDirectory(p)
                  ? "dir"
                  : Integer.toHexString(java.util.Arrays.hashCode(Files.readAllBytes(p)));
          out.put(base.relativize(p).toString(), v);
        } catch (IOException e) {
          out.put(base.relativize(p).toString(), "unreadable");
        }
      });
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      stop();
    } catch (RuntimeException e) {
      // already stopped
    }
    try (Stream<Path> walk = Files.walk(base)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // temp folder; the OS cleans it eventually
    }
  }
}
