package dev.steward.service.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.McpToolNames;
import dev.steward.protocol.tool.ToolError;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.SentSecrets;
import dev.steward.service.tools.ToolContext;
import dev.steward.service.tools.ToolFailure;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One configured MCP server and Steward's connection to it: started (or reached) in the
 * background, its tools listed and held against what the user accepted, restarted with back-off
 * when it fails, stopped with the service. Calls in flight fail as soon as the server goes away.
 */
final class ServerLink implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(ServerLink.class.getName());

  static final Duration START_LIMIT = Duration.ofSeconds(60);
  static final long MAX_BACKOFF_SECONDS = 60;
  /** A connection that lasted this long resets the back-off. */
  static final Duration STABLE = Duration.ofSeconds(60);

  static final long MAX_LOG_BYTES = 1 << 20;
  static final int MAX_TOOLS = 500;
  /** A progress line is a line, not a channel to the model. */
  static final int MAX_PROGRESS_CHARS = 200;

  static final int MAX_PAGES = 20;
  /** Longer than any honest description; room enough to hide a page of instructions. */
  static final int MAX_DESCRIPTION_CHARS = 8_000;

  static final int MAX_SCHEMA_CHARS = 64_000;

  /** MCP's wire names as they are: what the user reviews and what is hashed. */
  static final ObjectMapper WIRE = new ObjectMapper();

  private static final McpJsonMapper SDK_JSON = new JacksonMcpJsonMapper(WIRE);

  enum State {
    STARTING,
    RUNNING,
    FAILED,
    /** A server at a URL that wants the user to sign in first: not started again until then. */
    SIGN_IN_NEEDED,
    STOPPED;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** What every link shares: where it keeps its log, how it starts children, who to tell. */
  record Setting(
      Path folder,
      Supplier<Sandbox> sandbox,
      Map<String, String> environment,
      Pins pins,
      Supplier<PolicyDocument> policy,
      Executor starts,
      ScheduledExecutorService timer,
      Runnable toolsChanged,
      SignIns signIns) {}

  private final String name;
  private final String part;
  private final PolicyDocument.McpServer entry;
  private final Setting setting;
  private final Map<String, ProgressSink> progress = new ConcurrentHashMap<>();

  /** Where a call's progress goes, at most ten lines a second. */
  private static final class ProgressSink {
    final Consumer<String> to;
    /** What the server was sent of the user's: its progress says none of it either. */
    final SentSecrets sent;

    long last;

    ProgressSink(Consumer<String> to, SentSecrets sent) {
      this.to = to;
      this.sent = sent;
    }

    synchronized void accept(String message) {
      long now = System.nanoTime();
      if (last != 0 && now - last < 100_000_000L) return;
      last = now;
      to.accept(message);
    }
  }

  private final Object lock = new Object();
  private volatile State state = State.STARTING;
  private volatile @Nullable String problem;
  private volatile @Nullable McpAsyncClient client;
  private volatile @Nullable TrackedTransport transport;
  private volatile @Nullable ChildProcessTransport child;
  /** Completes with why when the current connection ends. */
  private volatile CompletableFuture<String> down = new CompletableFuture<>();

  private volatile Map<String, McpTool> tools = Map.of();
  private volatile long connectedAt;
  private final java.util.concurrent.atomic.AtomicBoolean relistAsked =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicBoolean relistAgain =
      new java.util.concurrent.atomic.AtomicBoolean();
  private int generation;
  private int failures;
  /** A token was just renewed after a 401: another 401 asks the user rather than renew again. */
  private volatile boolean renewed;

  private boolean closed;

  ServerLink(String name, PolicyDocument.McpServer entry, Setting setting) {
    this.name = name;
    this.part = McpToolNames.part(name);
    this.entry = entry;
    this.setting = setting;
  }

  String name() {
    return name;
  }

  PolicyDocument.McpServer entry() {
    return entry;
  }

  State state() {
    return state;
  }

  Path log() {
    return setting.folder().resolve(part + ".log");
  }

  Map<String, McpTool> tools() {
    return tools;
  }

  /** Whether the server is reached over the network rather than on this machine. */
  boolean remote() {
    String url = entry.url();
    if (url == null) return false;
    String host = URI.create(url).getHost();
    return host == null || !SignInHttp.loopback(host);
  }

  /**
   * Why calls cannot run now, in Steward's words only (the model reads it; what a server said
   * about its failure is for the window, in {@link #problem}).
   */
  Optional<String> unavailableForModel() {
    return switch (state) {
      case RUNNING -> Optional.empty();
      case STARTING ->
        Optional.of("the MCP server “" + name + "” is starting; try again in a moment");
      case STOPPED -> Optional.of("the MCP server “" + name + "” is stopped");
      case SIGN_IN_NEEDED ->
        Optional.of("the MCP server “" + name + "” waits for the user to sign in (Settings → MCP"
            + " servers); it cannot be called until then");
      default ->
        Optional.of(
            "the MCP server “" + name
                + "” is not running; Steward restarts it (the user sees why in Settings → MCP servers)");
    };
  }

  /** Why calls cannot run now, or empty while the server runs. */
  Optional<String> problem() {
    if (state == State.RUNNING) return Optional.empty();
    String why = problem;
    return Optional.of(
        switch (state) {
          case STARTING -> "the MCP server “" + name + "” is starting; try again in a moment";
          case STOPPED -> "the MCP server “" + name + "” is stopped";
          case SIGN_IN_NEEDED ->
            "the MCP server “" + name + "” asks you to sign in"
                + (why == null ? "" : " (" + why + ")");
          default ->
            "the MCP server “" + name + "” is not running" + (why == null ? "" : " (" + why + ")")
                + "; Steward restarts it";
        });
  }

  /** Ends the connection there is (calls on it fail at once) and makes a new one. */
  void restart() {
    int gen;
    synchronized (lock) {
      gen = generation;
    }
    lose(gen, State.STARTING, "starting again");
    start();
  }

  void start() {
    int gen;
    synchronized (lock) {
      if (closed) return;
      gen = ++generation;
      state = State.STARTING;
    }
    setting.starts().execute(() -> connect(gen));
  }

  private void connect(int gen) {
    if (entry.url() != null) setting.signIns().renewIfDue(name, entry.url());
    TappedTransport raw;
    try {
      raw = entry.command() != null ? childTransport(gen) : httpTransport(gen);
    } catch (IOException | RuntimeException e) {
      failed(gen, e.getMessage());
      return;
    }
    TrackedTransport tracked = new TrackedTransport(raw, () -> relistSoon(gen));
    McpAsyncClient c = McpClient.async(tracked)
        .requestTimeout(McpTool.TIME_LIMIT.plusSeconds(30))
        .initializationTimeout(START_LIMIT)
        .clientInfo(new McpSchema.Implementation("steward", "Steward", "0.1.0"))
        .capabilities(McpSchema.ClientCapabilities.builder().build())
        .progressConsumer(this::progressed)
        .build();
    try {
      McpSchema.InitializeResult init =
          java.util.Objects.requireNonNull(c.initialize().block(START_LIMIT), "initialize");
      // A server without the tools capability runs with none (it may offer only what Steward
      // does not use: prompts, resources).
      List<McpSchema.Tool> listed =
          init.capabilities() == null || init.capabilities().tools() == null
              ? List.of()
              : listAll(c);
      boolean stale;
      synchronized (lock) {
        stale = closed || gen != generation;
        if (!stale) {
          client = c;
          transport = tracked;
          install(listed);
          state = State.RUNNING;
          problem = null;
          connectedAt = System.nanoTime();
          renewed = false;
        }
      }
      if (stale) {
        c.close(); // outside the lock: closing a connection may wait on the network
        return;
      }
      LOG.info("MCP server “" + name + "” is running with " + listed.size() + " tools");
      setting.toolsChanged().run();
    } catch (RuntimeException e) {
      c.close();
      AuthChallenge challenge = challenge(e);
      if (challenge != null) refused(gen, challenge, false);
      else failed(gen, describe(e));
    }
  }

  private static @Nullable AuthChallenge challenge(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof AuthChallenge a) return a;
    }
    return null;
  }

  /**
   * The server refused what it was sent for want of a sign-in: a token that ran out is renewed
   * once; otherwise the link waits for the user to sign in, with the scopes asked for noted. A
   * 403 for a scope the token already holds is a refusal, not a reason to ask the user again: on a
   * call it fails that call alone, at the start it fails the connection.
   */
  private void refused(int gen, AuthChallenge challenge, boolean onCall) {
    String url = java.util.Objects.requireNonNull(entry.url());
    SignIns signIns = setting.signIns();
    if (challenge.status() == 401 && signIns.signedIn(name, url) && !renewed) {
      switch (signIns.refresh(name, url)) {
        case RENEWED -> {
          if (lose(gen, State.STARTING, "renewing the sign-in")) {
            renewed = true;
            start();
          }
          return;
        }
        case UNREACHABLE -> {
          // The sign-in may still be good: tried again after the back-off, not asked anew.
          failed(gen, "the sign-in could not be renewed now");
          return;
        }
        case REFUSED -> {
          // on to asking the user
        }
      }
    }
    // A 401 after a renewal asks the user whatever scopes it names; a 403 for a scope the token
    // holds is a refusal no sign-in changes.
    if (!challenge.asksSignIn() || (challenge.status() == 403 && signIns.holds(name, challenge))) {
      if (!onCall)
        failed(
            gen,
            "the server refuses the access its sign-in gives (HTTP " + challenge.status() + ")");
      return;
    }
    signIns.challenged(name, challenge);
    Set<String> scopes = challenge.scopes();
    String why = challenge.insufficientScope()
        ? "it wants more access" + (scopes.isEmpty() ? "" : ": " + String.join(" ", scopes))
        : "it answered 401";
    if (lose(gen, State.SIGN_IN_NEEDED, why))
      LOG.info("MCP server “" + name + "” waits for a sign-in (" + why + ")");
  }

  private TappedTransport childTransport(int gen) throws IOException {
    Files.createDirectories(setting.folder());
    Path log = log();
    if (Files.exists(log) && Files.size(log) > MAX_LOG_BYTES) {
      Files.move(
          log, setting.folder().resolve(part + ".log.1"), StandardCopyOption.REPLACE_EXISTING);
    }
    Map<String, String> env = new HashMap<>();
    for (String inherited : List.of("PATH", "HOME")) {
      String value = setting.environment().get(inherited);
      if (value != null) env.put(inherited, value);
    }
    env.putAll(entry.env());
    Path folder = workingFolder();
    List<String> command = new ArrayList<>();
    command.add(java.util.Objects.requireNonNull(entry.command()));
    command.addAll(entry.args());
    ChildProcessTransport t = new ChildProcessTransport(
        new ChildProcessTransport.Command(
            setting.sandbox().get().wrap(command, folder), env, folder, log),
        SDK_JSON,
        code -> failed(gen, "it exited with code " + code));
    child = t;
    return t;
  }

  /** A folder of its own to start in: a server's relative paths land there, not in the user's files. */
  private Path workingFolder() throws IOException {
    return Files.createDirectories(setting.folder().resolve(part));
  }

  private TappedTransport httpTransport(int gen) {
    URI uri = URI.create(java.util.Objects.requireNonNull(entry.url()));
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) path += "?" + uri.getRawQuery();
    return new StreamableHttpTransport(
        URI.create(base + path),
        SDK_JSON,
        McpTool.TIME_LIMIT.plusSeconds(30),
        why -> failed(gen, why),
        () -> setting.signIns().bearer(name, java.util.Objects.requireNonNull(entry.url())),
        entry.headers());
  }

  /** Every page of the server's tools, up to {@link #MAX_TOOLS} tools and {@link #MAX_PAGES} pages. */
  private static List<McpSchema.Tool> listAll(McpAsyncClient c) {
    List<McpSchema.Tool> all = new ArrayList<>();
    String cursor = null;
    for (int pages = 0; pages < MAX_PAGES; pages++) {
      McpSchema.ListToolsResult page =
          java.util.Objects.requireNonNull(c.listTools(cursor).block(START_LIMIT), "tools/list");
      if (page.tools() == null || page.tools().isEmpty()) break;
      all.addAll(page.tools());
      cursor = page.nextCursor();
      if (cursor == null || all.size() >= MAX_TOOLS) break;
    }
    return all.size() > MAX_TOOLS ? List.copyOf(all.subList(0, MAX_TOOLS)) : all;
  }

  private final RelistPace relistPace = new RelistPace();

  /**
   * A server said its tools changed: they are listed again after a wait ({@link RelistPace}), once
   * however often it says so meanwhile, and never two listings at a time.
   */
  private void relistSoon(int gen) {
    if (!relistAsked.compareAndSet(false, true)) {
      // One listing is asked for or runs: it is followed by one more, for what came meanwhile.
      relistAgain.set(true);
      return;
    }
    long wait = relistPace.next(System.nanoTime());
    setting
        .timer()
        .schedule(
            () -> setting.starts().execute(() -> {
              relistAgain.set(false);
              try {
                relist(gen);
              } finally {
                relistPace.listed(System.nanoTime());
                relistAsked.set(false);
              }
              if (relistAgain.getAndSet(false)) relistSoon(gen);
            }),
            wait,
            TimeUnit.MILLISECONDS);
  }

  private void relist(int gen) {
    McpAsyncClient c = client;
    if (c == null) return;
    try {
      List<McpSchema.Tool> listed = listAll(c);
      synchronized (lock) {
        if (closed || gen != generation) return;
        install(listed);
      }
      setting.toolsChanged().run();
    } catch (RuntimeException e) {
      LOG.warning("cannot list the tools of the MCP server “" + name + "”: " + describe(e));
    }
  }

  /** Names, hashes and flags for the tools as listed now, each held against the user's pins. */
  private void install(List<McpSchema.Tool> listed) {
    Map<String, McpTool> next = new LinkedHashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (McpSchema.Tool t : listed) {
      if (t.name() != null) uses.merge(McpToolNames.part(t.name()), 1, Integer::sum);
    }
    // Two of the server's names that read alike each get a suffix from their own name, so a
    // rating, a grant or a token for one never passes to the other when the server reorders; a
    // name that reads like another's suffixed one gets a second suffix, both of them.
    Map<String, String> parts = new LinkedHashMap<>();
    for (McpSchema.Tool t : listed) {
      if (t.name() == null || parts.containsKey(t.name())) continue;
      String part = McpToolNames.part(t.name());
      parts.put(t.name(), uses.getOrDefault(part, 0) > 1 ? part + suffix(t.name()) : part);
    }
    Map<String, Integer> partUses = new HashMap<>();
    parts.values().forEach(p -> partUses.merge(p, 1, Integer::sum));
    Set<String> seen = new HashSet<>();
    for (McpSchema.Tool t : listed) {
      if (t.name() == null || !seen.add(t.name())) continue;
      String part = parts.get(t.name());
      if (partUses.getOrDefault(part, 0) > 1) part += suffix(t.name());
      String toolName = McpToolNames.prefix(name) + part;
      if (next.containsKey(toolName)) continue; // alike even so: the first keeps it
      next.put(toolName, new McpTool(toolName, this, listing(t), setting.policy()));
    }
    tools = java.util.Collections.unmodifiableMap(next);
  }

  private static String suffix(String remoteName) {
    return "_"
        + CanonicalJson.sha256Hex(remoteName.getBytes(StandardCharsets.UTF_8)).substring(0, 6);
  }

  private McpTool.Listing listing(McpSchema.Tool t) {
    ObjectNode wire = WIRE.valueToTree(t);
    wire.remove("_meta");
    wire.remove("icons");
    String hash = CanonicalJson.sha256(wire);
    JsonNode schema = t.inputSchema() == null
        ? Json.object().put("type", "object")
        : WIRE.valueToTree(t.inputSchema());
    String description = t.description() == null ? "" : t.description();
    McpSchema.ToolAnnotations a = t.annotations();
    boolean readOnly = a != null && Boolean.TRUE.equals(a.readOnlyHint());
    // MCP's default for openWorldHint is true: a tool may reach beyond the machine unless it says
    // not.
    boolean openWorld = a == null || !Boolean.FALSE.equals(a.openWorldHint());
    // Whatever a server elsewhere is called with leaves the machine, whatever it says of itself.
    if (remote()) openWorld = true;
    String title = t.title() != null ? t.title() : a != null ? a.title() : null;
    return new McpTool.Listing(
        t.name(),
        title,
        description,
        schema,
        readOnly,
        openWorld,
        hash,
        setting.pins().standing(pinKey(), t.name(), hash),
        DescriptionCheck.flags(title, description, schema),
        sizeProblem(t, title, description, schema).or(() -> SchemaSafety.problem(schema)));
  }

  private static Optional<String> sizeProblem(
      McpSchema.Tool t, @Nullable String title, String description, JsonNode schema) {
    if (t.name().length() > 128)
      return Optional.of("its name is over 128 characters; the tool stays off");
    if (title != null && title.length() > 128)
      return Optional.of("its title is over 128 characters; the tool stays off");
    if (description.length() > MAX_DESCRIPTION_CHARS)
      return Optional.of("its description is " + description.length() + " characters, over "
          + MAX_DESCRIPTION_CHARS + "; the tool stays off");
    if (schema.toString().length() > MAX_SCHEMA_CHARS)
      return Optional.of(
          "its input schema is over " + MAX_SCHEMA_CHARS + " characters; the tool stays off");
    return Optional.empty();
  }

  /**
   * What the user's acceptance is kept under ({@link #pinKey(String, PolicyDocument.McpServer)}):
   * another program given the same name is a server to review anew.
   */
  String pinKey() {
    return pinKey(name, entry);
  }

  /**
   * A server's pins hold for its name and how it starts: its command and arguments, or its address
   * — and, when it has an environment, the names in it and the values of those that decide what
   * runs ({@link PolicyDocument.McpServer#steersLoading}): another {@code PATH} or {@code
   * NODE_OPTIONS} is another program, whose tools are looked at anew. Other values (a key) may
   * change.
   */
  static String pinKey(String name, PolicyDocument.McpServer entry) {
    String how = CanonicalJson.sha256(Json.tree(entry.withoutSecrets())).substring(0, 16);
    if (entry.env().isEmpty()) return name + "@" + how;
    com.fasterxml.jackson.databind.node.ObjectNode env = Json.object();
    new java.util.TreeMap<>(entry.env())
        .forEach((k, v) -> env.put(k, PolicyDocument.McpServer.steersLoading(k) ? v : ""));
    return name + "@" + how + "." + CanonicalJson.sha256(env).substring(0, 16);
  }

  /**
   * Accepts tools as the user saw them: each by the server's name and the hash of the
   * description shown. A tool the server has described anew since is not accepted; its name
   * comes back in the answer's {@code changed}.
   */
  AcceptOutcome accept(Map<String, String> seen) {
    Map<String, String> hashes = new LinkedHashMap<>();
    List<String> changed = new ArrayList<>();
    for (McpTool t : tools.values()) {
      String shown = seen.get(t.listing().remoteName());
      if (shown == null) continue;
      if (shown.equals(t.listing().hash())) hashes.put(t.listing().remoteName(), shown);
      else changed.add(t.listing().remoteName());
    }
    setting.pins().accept(pinKey(), hashes);
    synchronized (lock) {
      Map<String, McpTool> next = new LinkedHashMap<>();
      tools.forEach((toolName, t) -> {
        McpTool.Listing l = t.listing();
        Pins.Standing now = setting.pins().standing(pinKey(), l.remoteName(), l.hash());
        next.put(toolName, new McpTool(toolName, this, l.withStanding(now), setting.policy()));
      });
      tools = java.util.Collections.unmodifiableMap(next);
    }
    setting.toolsChanged().run();
    return new AcceptOutcome(List.copyOf(hashes.keySet()), List.copyOf(changed));
  }

  record AcceptOutcome(List<String> accepted, List<String> changed) {}

  private void failed(int gen, @Nullable String why) {
    if (!lose(gen, State.FAILED, why == null ? "it failed" : why)) return;
    long delay;
    int lost = gen + 1; // what lose made it: a start since makes it another
    synchronized (lock) {
      delay = Math.min(MAX_BACKOFF_SECONDS, 1L << Math.min(failures, 6));
      failures++;
    }
    LOG.warning(
        "MCP server “" + name + "” failed (" + problem + "); restarting in " + delay + " s");
    setting.timer().schedule(() -> startAfter(lost), delay, TimeUnit.SECONDS);
  }

  /** Starts again after a failure, unless it was started since (restarted by the user, signed in). */
  private void startAfter(int lost) {
    synchronized (lock) {
      if (generation != lost) return;
    }
    start();
  }

  /**
   * Ends the connection of generation {@code gen} (calls waiting on it fail at once) and puts the
   * link in {@code next}; false when that connection had ended already.
   */
  private boolean lose(int gen, State next, String why) {
    McpAsyncClient c;
    synchronized (lock) {
      if (closed || gen != generation) return false;
      generation++;
      c = client;
      client = null;
      transport = null;
      state = next;
      problem = why;
      down.complete(why);
      down = new CompletableFuture<>();
      if (connectedAt != 0 && System.nanoTime() - connectedAt > STABLE.toNanos()) failures = 0;
      connectedAt = 0;
    }
    if (c != null) c.close();
    ChildProcessTransport ch = child;
    if (ch != null) ch.close();
    setting.toolsChanged().run();
    return true;
  }

  private Mono<Void> progressed(McpSchema.ProgressNotification n) {
    ProgressSink to =
        n.progressToken() == null ? null : progress.get(n.progressToken().toString());
    if (to != null) {
      String message = n.message() != null && !n.message().isBlank()
          ? n.message()
          : n.total() != null
              ? number(n.progress()) + " of " + number(n.total())
              : number(n.progress());
      to.accept(McpResults.cut(to.sent.clean(message), MAX_PROGRESS_CHARS));
    }
    return Mono.empty();
  }

  private static String number(@Nullable Double d) {
    if (d == null) return "?";
    return d == Math.rint(d) ? Long.toString(d.longValue()) : d.toString();
  }

  /**
   * Forwards one call; fails at once if the server goes away meanwhile. What comes back, answer or
   * failure, says none of the user's secrets this server is sent (a server that echoes them).
   */
  JsonNode call(String remoteName, JsonNode args, ToolContext ctx) throws ToolFailure {
    SentSecrets sent = sent();
    try {
      return forward(remoteName, args, ctx, sent);
    } catch (ToolFailure f) {
      ToolError e = f.error();
      throw new ToolFailure(e.code(), sent.clean(e.message()), e.field(), e.details());
    }
  }

  /**
   * The user's secrets this server is sent: its entry's headers, its sign-in, and those of its
   * values that are secrets by their name or their look (a region or a profile name is not: it
   * would be cut out of every answer that names it).
   */
  private SentSecrets sent() {
    SentSecrets s = new SentSecrets();
    entry.headers().forEach(s::add);
    entry.env().forEach((k, v) -> {
      if (SECRET_NAME.matcher(k).find() || CREDENTIAL.matcher(v.strip()).matches())
        s.addWhole(v, "your " + k + " value");
    });
    String url = entry.url();
    if (url != null)
      setting.signIns().bearer(name, url).ifPresent(t -> s.add("Authorization", t, "your sign-in"));
    return s;
  }

  /** A value's name that says it is a secret. */
  private static final java.util.regex.Pattern SECRET_NAME = java.util.regex.Pattern.compile(
      "KEY|TOKEN|SECRET|PASS|AUTH|CRED|COOKIE|PRIVATE|DSN|SESSION|BEARER",
      java.util.regex.Pattern.CASE_INSENSITIVE);

  /** A value that looks like a credential: one word of 16 or more, letters and digits mixed. */
  private static final java.util.regex.Pattern CREDENTIAL =
      java.util.regex.Pattern.compile("(?=\\S*[A-Za-z])(?=\\S*[0-9])\\S{16,}");

  /** The call itself; what the server says is cleaned by {@code sent} before it is cut. */
  private JsonNode forward(String remoteName, JsonNode args, ToolContext ctx, SentSecrets sent)
      throws ToolFailure {
    McpAsyncClient c;
    TrackedTransport t;
    CompletableFuture<String> gone;
    int gen;
    synchronized (lock) {
      c = client;
      t = transport;
      gone = down;
      gen = generation;
    }
    if (state != State.RUNNING || c == null || t == null) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE, unavailableForModel().orElse("the server is not running"));
    }
    String token = "steward-" + UUID.randomUUID();
    progress.put(token, new ProgressSink(ctx.progress(), sent));
    CompletableFuture<JsonNode> call = t.call(remoteName, args, token);
    try {
      CompletableFuture.anyOf(call, gone).get();
    } catch (InterruptedException e) {
      t.cancel(token, "cancelled by the user or at its time limit");
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new ToolFailure(ToolErrorCodes.CANCELLED, "the call was cancelled");
    } catch (ExecutionException e) {
      // the call's own failure is read below
    } finally {
      progress.remove(token);
      t.done(token);
    }
    if (!call.isDone()) {
      call.cancel(true);
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the MCP server “" + name + "” stopped during the call; Steward restarts it, and the"
              + " call did not finish");
    }
    try {
      return McpResults.value(sent.cleaned(call.join()), name);
    } catch (java.util.concurrent.CompletionException
        | java.util.concurrent.CancellationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof McpError m && StreamableHttpTransport.lost(m)) {
        // This call's answer was lost on its way (its stream), not the server: it goes on.
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            "the MCP server “" + name + "” did not answer the call: "
                + McpResults.cut(
                    sent.clean(String.valueOf(m.getMessage())), McpResults.MAX_ERROR_CHARS));
      }
      AuthChallenge challenge = challenge(cause);
      if (challenge != null) {
        refused(gen, challenge, true);
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            switch (state) {
              case SIGN_IN_NEEDED ->
                "the MCP server “" + name + "” wants the user to sign in"
                    + (challenge.insufficientScope() ? " again, giving it more access," : "")
                    + " before this call (Settings → MCP servers); the call did not run";
              case STARTING ->
                "the sign-in to the MCP server “" + name + "” was renewed; the call did not run"
                    + " and can be tried again";
              default ->
                "the MCP server “" + name + "” refused the call for want of access (HTTP "
                    + challenge.status() + ")";
            });
      }
      if (cause instanceof McpError m) {
        throw new ToolFailure(
            ToolErrorCodes.EXECUTION_ERROR,
            "the MCP server “" + name + "” refused the call: "
                + McpResults.cut(
                    sent.clean(String.valueOf(m.getMessage())), McpResults.MAX_ERROR_CHARS));
      }
      if (entry.url() != null) failed(gen, describe(cause));
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the MCP server “" + name + "” could not be reached: " + describe(cause));
    }
  }

  /** The last lines the server wrote to stderr, for the user (never for the model). */
  List<String> stderrTail(int lines) {
    Path log = log();
    if (!Files.exists(log)) return List.of();
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long length = f.length();
      int size = (int) Math.min(length, 8192);
      byte[] bytes = new byte[size];
      f.seek(length - size);
      f.readFully(bytes);
      List<String> all =
          new ArrayList<>(List.of(new String(bytes, StandardCharsets.UTF_8).split("\n")));
      if (length > size && !all.isEmpty()) all.remove(0);
      all.removeIf(String::isBlank);
      return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** The child's process id while it runs, for tests that end it as a crash would. */
  long pid() {
    ChildProcessTransport ch = child;
    return state == State.RUNNING && ch != null ? ch.pid() : -1;
  }

  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String message =
        root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    if (root instanceof java.util.concurrent.TimeoutException || message.contains("Timeout"))
      return "it did not answer in time";
    return message;
  }

  @Override
  public void close() {
    McpAsyncClient c;
    synchronized (lock) {
      closed = true;
      generation++;
      state = State.STOPPED;
      c = client;
      client = null;
      down.complete("Steward stopped it");
    }
    if (c != null) c.close();
    ChildProcessTransport ch = child;
    if (ch != null) ch.close();
  }
}
