package dev.steward.service.bench;

import static dev.steward.service.TestService.args;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Execute;
import dev.steward.protocol.method.Grant;
import dev.steward.protocol.method.Methods;
import dev.steward.protocol.method.Preflight;
import dev.steward.protocol.method.Role;
import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.ToolResult;
import dev.steward.service.RawWebSocket;
import dev.steward.service.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code ./steward bench first} (issue 23): what a user meets. For each call, a fresh service is
 * started; a client connects once it is ready and asks for the tools on offer, as the window and
 * the MCP bridge do; 2 s later it calls the tool ten times: the first call and the median of
 * calls 2–10, beside the same call's warm figure (after 40 more) and a baseline program measured
 * in the same run (ripgrep, find). Each for {@code ./steward service} and for the packaged image
 * when {@code ./steward package} has built it. Each service starts on a home of its own that holds
 * the idle warm-up's tree and the browser's unpacked driver, as every start but the first after
 * install does ({@link #keepWhatEarlierStartsMade}).
 */
final class FirstCallsBench {

  private static final int CALLS = 10;
  private static final int WARM = 40;
  private static final int WARM_MEASURED = 15;

  /** From the client's first message (or the service's readiness) to the first call. */
  private static final long DELAY_MS = Long.getLong("steward.bench.first.delay", 2000);

  /**
   * How a service is started: its command and any environment it needs; and how an MCP client
   * starts the bridge beside it.
   */
  private record Launch(
      String name, List<String> command, Map<String, String> env, List<String> mcp) {}

  /**
   * One measured call, its baseline (null: against its own warm figure) and its targets; {@code
   * mcp}: made by an MCP client through a {@code steward mcp} it starts once the service is ready.
   */
  private record Case(
      String name,
      JsonNode args,
      String tool,
      List<String> baseline,
      String target,
      PolicyDocument.Hosts hosts,
      boolean mcp,
      boolean clicked) {
    Case(String name, JsonNode args, String tool, List<String> baseline, String target) {
      this(
          name,
          args,
          tool,
          baseline,
          target,
          new PolicyDocument.Hosts(List.of(), false),
          false,
          false);
    }
  }

  private FirstCallsBench() {}

  static void run(List<String[]> table, Path tmp) throws Exception {
    Path zip = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/lib/src.zip");
    if (!Files.exists(zip) || !Files.isExecutable(Path.of("/usr/bin/rg")))
      throw new IllegalStateException("bench first needs " + zip + " and /usr/bin/rg");
    Path corpus = tmp.resolve("jdk-src");
    int files = Bench.unzip(zip, corpus);
    Path small = tmp.resolve("one-kb.txt");
    Files.writeString(small, "x".repeat(1023) + "\n", StandardCharsets.UTF_8);
    String c = corpus.toString();
    com.sun.net.httpserver.HttpServer pages = Bench.localPage();
    List<Case> cases = List.of(
        search("literal", "ConcurrentModificationException", false, c),
        search("regex", "synchronized\\s*\\(this\\)", true, c),
        new Case(
            "files.list_dir recursive",
            args(
                "path",
                c,
                "recursive",
                true,
                "include_hidden",
                true,
                "max_depth",
                64,
                "max_entries",
                100000),
            "files.list_dir",
            List.of("find", c, "-type", "f"),
            "first ≤ 3× find (aim 2×)"),
        new Case(
            "files.read_text 1 KB",
            args("path", small.toString()),
            "files.read_text",
            List.of(),
            "calls 2–10 ≤ 1.5× warm"),
        new Case(
            "browser.open_url local page",
            args("url", "http://127.0.0.1:" + pages.getAddress().getPort() + "/page"),
            "browser.open_url",
            List.of(),
            "the first starts Chromium",
            new PolicyDocument.Hosts(List.of("127.0.0.1"), true),
            false,
            false),
        new Case(
            "browser.open_url, a host that needs a click, from the click",
            args("url", "http://localhost:" + pages.getAddress().getPort() + "/page"),
            "browser.open_url",
            List.of(),
            "the dialog up 1.5 s before the first",
            new PolicyDocument.Hosts(List.of("127.0.0.1"), true),
            false,
            true),
        new Case(
            "MCP tools/call files.read_text 1 KB, steward mcp just started",
            args("path", small.toString()),
            "files.read_text",
            List.of(),
            "calls 2–10 ≤ 1.5× warm",
            new PolicyDocument.Hosts(List.of(), false),
            true,
            false));

    try {
      measureAll(table, tmp, corpus, files, cases);
    } finally {
      pages.stop(0);
    }
  }

  private static void measureAll(
      List<String[]> table, Path tmp, Path corpus, int files, List<Case> cases) throws Exception {
    List<Launch> launches = new ArrayList<>();
    launches.add(new Launch(
        "./steward service",
        System.getenv("STEWARD_BENCH_FIRST_CMD") != null
            ? List.of(System.getenv("STEWARD_BENCH_FIRST_CMD"))
            : List.of(ServiceProcess.repo().resolve("steward").toString(), "service"),
        launcherOptions(),
        List.of(ServiceProcess.repo().resolve("steward").toString(), "mcp")));
    Path image = System.getenv("STEWARD_BENCH_IMAGE") != null
        ? Path.of(System.getenv("STEWARD_BENCH_IMAGE"))
        : ServiceProcess.repo().resolve("installer/target/image/steward");
    if (Files.isExecutable(image.resolve("bin/steward-service"))) {
      // As installed: the package's postinst makes the class-data-sharing archives in place.
      Process dump = new ProcessBuilder(image.resolve("lib/cds-dump.sh").toString())
          .inheritIO()
          .start();
      if (!dump.waitFor(180, java.util.concurrent.TimeUnit.SECONDS) || dump.exitValue() != 0)
        throw new IllegalStateException("cds-dump.sh failed");
      launches.add(new Launch(
          "packaged image",
          List.of(image.resolve("bin/steward-service").toString()),
          Map.of(),
          List.of(image.resolve("bin/steward-service").toString(), "mcp")));
    }
    String only = System.getenv("STEWARD_BENCH_FIRST_ONLY");
    // This program's own WebSocket client warmed first, on a service of its own: what is measured
    // after is the fresh service, not this side's JIT.
    for (Case k : cases) {
      if (only == null || k.name.contains(only))
        measure(launches.get(0), k, corpus, files, tmp.resolve("home-warm"), tmp);
    }
    // For trying options: only ./steward service, or only the image.
    if ("service".equals(System.getenv("STEWARD_BENCH_FIRST_LAUNCH")))
      launches.subList(1, launches.size()).clear();
    if ("image".equals(System.getenv("STEWARD_BENCH_FIRST_LAUNCH")) && launches.size() > 1)
      launches.remove(0);
    int round = 0;
    for (Launch launch : launches) {
      for (Case k : cases) {
        if (only != null && !k.name.contains(only)) continue;
        table.add(measure(launch, k, corpus, files, tmp.resolve("home-" + round++), tmp));
      }
    }
    if (launches.stream().noneMatch(l -> l.name().equals("packaged image"))) {
      table.add(new String[] {
        "packaged image", "not run", "./steward bench (all) or ./steward package builds it first"
      });
    }
  }

  /** A search of the corpus, and ripgrep's same search as its baseline. */
  private static Case search(String kind, String content, boolean regex, String corpus) {
    List<String> rg =
        new ArrayList<>(List.of("/usr/bin/rg", "-uuu", "--no-ignore", "-n", "--no-heading"));
    if (!regex) rg.add("-F");
    rg.addAll(List.of("-e", content, corpus));
    return new Case(
        "files.search " + kind,
        args(
            "path",
            corpus,
            "content",
            content,
            "regex",
            regex,
            "include_hidden",
            true,
            "max_results",
            100000),
        "files.search",
        rg,
        "first ≤ 3× rg (aim 2×)");
  }

  /** For trying options: STEWARD_BENCH_SERVICE_OPTS (JVM options) and STEWARD_BENCH_JAVA. */
  private static Map<String, String> launcherOptions() {
    Map<String, String> env = new java.util.HashMap<>();
    String extra = System.getenv("STEWARD_BENCH_SERVICE_OPTS");
    if (extra != null) env.put("STEWARD_JAVA_OPTS", extra);
    String java = System.getenv("STEWARD_BENCH_JAVA");
    if (java != null) env.put("JAVA", java);
    return env;
  }

  /**
   * The warm-up's tree and the browser's unpacked driver as an earlier start made them, as every
   * start but the very first after install finds them (that one also writes the tree, ~1.5 s of
   * disk, and unpacks the driver at its first visit, ~0.7 s): {@code
   * -Dsteward.bench.first.tree=false} measures that first start instead. They are the ones the
   * warming rounds' service made on its own home; the driver (~140 MB) is linked, not copied.
   */
  private static void keepWhatEarlierStartsMade(Path home, Path tmp) throws Exception {
    if (!Boolean.parseBoolean(System.getProperty("steward.bench.first.tree", "true"))
        || home.endsWith("home-warm")) return;
    Files.createDirectories(home.resolve("data"));
    for (String kept : List.of("warmup", "browser-driver")) {
      Path made = tmp.resolve("home-warm/data").resolve(kept);
      if (!Files.isDirectory(made)) continue;
      Process cp = new ProcessBuilder(
              "cp",
              kept.equals("warmup") ? "-a" : "-al",
              made.toString(),
              home.resolve("data").toString())
          .inheritIO()
          .start();
      if (cp.waitFor() != 0) throw new IllegalStateException("copying " + made + " failed");
    }
  }

  private static String[] measure(
      Launch launch, Case k, Path corpus, int files, Path home, Path tmp) throws Exception {
    Files.createDirectories(home.resolve("config"));
    PolicyDocument doc = new PolicyDocument(
        List.of(new PolicyDocument.PathRoot(tmp.toString(), "read")),
        List.of(),
        k.hosts,
        List.of(),
        Map.of(),
        List.of());
    Files.writeString(home.resolve("config/policy.json"), Json.write(doc));
    keepWhatEarlierStartsMade(home, tmp);
    if (k.mcp) return measureMcp(launch, k, home, tmp);
    if (k.clicked) return measureClicked(launch, k, home, tmp);
    // The page cache warm for both sides: what is measured is the programs, not the disk.
    long[] base = k.baseline.isEmpty() ? new long[0] : runBaseline(k.baseline, 3 + CALLS);
    long[] calls = new long[CALLS];
    long[] warm = new long[WARM_MEASURED];
    try (ServiceProcess service =
            ServiceProcess.start(launch.command, home, tmp, List.of(), launch.env);
        RawWebSocket agent = new RawWebSocket(service.port, service.secret(Role.AGENT))) {
      // As every client does on connecting (the window, the MCP bridge): the tools on offer first.
      String tools = agent.roundTrip("{\"jsonrpc\":\"2.0\",\"id\":\"tools\",\"method\":\""
          + Methods.TOOLS_LIST + "\",\"params\":{}}");
      if (!tools.contains("\"tools\"")) throw new IllegalStateException("tools.list: " + tools);
      Thread.sleep(DELAY_MS);
      for (int i = 0; i < CALLS; i++) calls[i] = timed(agent, k, "c" + i);
      for (int i = 0; i < WARM; i++) {
        long ns = timed(agent, k, "w" + i);
        if (i >= WARM - WARM_MEASURED) warm[i - (WARM - WARM_MEASURED)] = ns;
      }
    }
    Timed t = Timed.of(calls, warm);
    double first = t.first();
    double later = t.later();
    double warmMs = t.warm();
    String result;
    if (base.length > 0) {
      double b = median(Arrays.copyOfRange(base, 3, base.length)) / 1e6;
      result =
          String.format("%.0f ms = %.1f× / %.0f ms = %.1f×", first, first / b, later, later / b);
      return new String[] {
        k.name + ", first / calls 2–10 (" + launch.name + ")",
        result,
        String.format(
            "%s %.0f ms; warm %.0f ms (calls 2–10 %.2f× warm); %d files; %s",
            k.baseline.get(0).replace("/usr/bin/", ""), b, warmMs, later / warmMs, files, k.target)
      };
    }
    return t.row(k, launch, "");
  }

  /** The first call, the median of calls 2–10 and the warm median, in ms. */
  private record Timed(double first, double later, double warm) {
    static Timed of(long[] calls, long[] warm) {
      long[] rest = Arrays.copyOfRange(calls, 1, calls.length);
      long[] settled = warm.clone();
      Arrays.sort(rest);
      Arrays.sort(settled);
      return new Timed(
          calls[0] / 1e6, rest[rest.length / 2] / 1e6, settled[settled.length / 2] / 1e6);
    }

    /** A row against the call's own warm figure; {@code before} opens its note. */
    String[] row(Case k, Launch launch, String before) {
      return new String[] {
        k.name + ", first / calls 2–10 (" + launch.name + ")",
        String.format("%.1f ms / %.1f ms", first, later),
        String.format(
            "%swarm %.1f ms (calls 2–10 %.2f× warm); %s", before, warm, later / warm, k.target)
      };
    }
  }

  /**
   * A call that needs the user's click, as the window makes it: asked for first ({@code
   * tool.preflight}, before the dialog), then granted and run; timed from the grant (the click) to
   * the answer. Before the first the dialog stays up 1.5 s, as a user reads it; the others are
   * clicked at once.
   */
  private static String[] measureClicked(Launch launch, Case k, Path home, Path tmp)
      throws Exception {
    long[] calls = new long[CALLS];
    long[] warm = new long[WARM_MEASURED];
    try (ServiceProcess service =
            ServiceProcess.start(launch.command, home, tmp, List.of(), launch.env);
        StewardClient ui = service.client(Role.UI);
        StewardClient agent = service.client(Role.AGENT)) {
      agent.tools();
      Thread.sleep(DELAY_MS);
      for (int i = 0; i < CALLS; i++) calls[i] = clicked(ui, agent, k, "c" + i, i == 0 ? 1500 : 0);
      for (int i = 0; i < WARM; i++) {
        long ns = clicked(ui, agent, k, "w" + i, 0);
        if (i >= WARM - WARM_MEASURED) warm[i - (WARM - WARM_MEASURED)] = ns;
      }
    }
    return Timed.of(calls, warm).row(k, launch, "");
  }

  private static long clicked(
      StewardClient ui, StewardClient agent, Case k, String id, long dialogMs) throws Exception {
    Preflight.Result asked = agent.preflight(id, k.tool, k.args);
    if (!Preflight.CONFIRM.equals(asked.decision()))
      throw new IllegalStateException(k.name + ": not asked for: " + asked.reason());
    Thread.sleep(dialogMs);
    long t0 = System.nanoTime();
    String token = ui.grant(
            new Grant.Params(id, List.of(new Grant.Call(k.tool, k.args)), null, null, 60, null))
        .confirmToken();
    ToolResult r = agent.execute(new Execute.Params(id, id, k.tool, k.args, token, null));
    long t1 = System.nanoTime();
    if (!r.ok()) throw new IllegalStateException(k.name + ": " + r.error());
    return t1 - t0;
  }

  /**
   * The MCP row: a fresh service as for the others, then an MCP client (the SDK's, over stdio)
   * starts {@code steward mcp} 2 s after the service is ready, initializes, and calls: what a user
   * meets when their MCP client starts.
   */
  private static String[] measureMcp(Launch launch, Case k, Path home, Path tmp) throws Exception {
    long[] calls = new long[CALLS];
    long[] warm = new long[WARM_MEASURED];
    long started;
    try (ServiceProcess service =
        ServiceProcess.start(launch.command, home, tmp, List.of(), launch.env)) {
      Thread.sleep(DELAY_MS);
      Map<String, String> env = new java.util.HashMap<>(launch.env);
      env.put("STEWARD_HOME", home.toString());
      env.put("STEWARD_NO_BUILD", "1");
      env.put("JAVA_TOOL_OPTIONS", "-Duser.home=" + tmp);
      long t0 = System.nanoTime();
      io.modelcontextprotocol.client.McpSyncClient client =
          io.modelcontextprotocol.client.McpClient.sync(
                  new io.modelcontextprotocol.client.transport.StdioClientTransport(
                      io.modelcontextprotocol.client.transport.ServerParameters.builder(
                              launch.mcp.get(0))
                          .args(launch.mcp.subList(1, launch.mcp.size()))
                          .env(env)
                          .build(),
                      io.modelcontextprotocol.json.McpJsonDefaults.getMapper()))
              .requestTimeout(java.time.Duration.ofSeconds(60))
              .clientInfo(
                  new io.modelcontextprotocol.spec.McpSchema.Implementation("bench-first", "1"))
              .build();
      try {
        client.initialize();
        started = System.nanoTime() - t0;
        Map<String, Object> arguments = Json.convert(k.args, Map.class);
        io.modelcontextprotocol.spec.McpSchema.CallToolRequest call =
            new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(k.tool, arguments);
        for (int i = 0; i < CALLS; i++) calls[i] = timedMcp(client, call);
        for (int i = 0; i < WARM; i++) {
          long ns = timedMcp(client, call);
          if (i >= WARM - WARM_MEASURED) warm[i - (WARM - WARM_MEASURED)] = ns;
        }
      } finally {
        client.closeGracefully();
      }
    }
    return Timed.of(calls, warm)
        .row(k, launch, String.format("start → initialize answered %.0f ms; ", started / 1e6));
  }

  private static long timedMcp(
      io.modelcontextprotocol.client.McpSyncClient client,
      io.modelcontextprotocol.spec.McpSchema.CallToolRequest call) {
    long t0 = System.nanoTime();
    io.modelcontextprotocol.spec.McpSchema.CallToolResult r = client.callTool(call);
    long t1 = System.nanoTime();
    if (Boolean.TRUE.equals(r.isError()))
      throw new IllegalStateException("the MCP call failed: " + r.content());
    return t1 - t0;
  }

  /** One call, its answer in hand as text (this side's JSON parsing is not the service's time). */
  private static long timed(RawWebSocket agent, Case k, String id) throws Exception {
    String frame = "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\""
        + Methods.TOOL_EXECUTE + "\",\"params\":"
        + Json.write(new Execute.Params("first", id, k.tool, k.args, null, null)) + "}";
    long t0 = System.nanoTime();
    String answer = agent.roundTrip(frame);
    while (!answer.contains("\"id\":\"" + id + "\"")) answer = agent.next(); // progress first
    long t1 = System.nanoTime();
    if (!answer.contains("\"ok\":true"))
      throw new IllegalStateException(
          k.name + ": " + answer.substring(0, Math.min(400, answer.length())));
    return t1 - t0;
  }

  private static long[] runBaseline(List<String> command, int runs) throws Exception {
    long[] ns = new long[runs];
    for (int i = 0; i < runs; i++) {
      long t0 = System.nanoTime();
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      p.waitFor();
      ns[i] = System.nanoTime() - t0;
    }
    return ns;
  }

  private static double median(long[] values) {
    long[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }
}
