package dev.steward.service;

import dev.steward.service.audit.Durability;
import dev.steward.service.config.StewardHome;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;

/** {@code ./steward service}: runs the service in the foreground until it is stopped. */
public final class ServiceMain {

  // java.util.logging holds loggers weakly: without this reference the level set below could be
  // collected with its logger, and Jetty's start-up chatter would come back.
  private static final Logger JETTY = Logger.getLogger("org.eclipse.jetty");

  /**
   * The MCP SDK warns for each message of a server's it cannot place (an answer to no request, a
   * notification it has no handler for): a server sending those without end would grow the
   * service's log without end.
   */
  private static final Logger MCP_SDK = Logger.getLogger("io.modelcontextprotocol");

  private static final String JETTY_REFS_PER_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

  /** How many rounds the idle warm-up runs (ADR 29); 0 turns it off, as the tests' harnesses do. */
  static final String WARMUP_ROUNDS_PROPERTY = "steward.warmup.rounds";

  private ServiceMain() {}

  private static final long MAIN_STARTED = System.nanoTime();

  /**
   * Milliseconds since main began (java.lang.management's uptime would load ~50 classes into every
   * start; the process's own start time is only known to the second). Benchmarks time the whole
   * process from outside.
   */
  /**
   * {@code steward-service mcp} (SPEC §12): the installed package's MCP bridge, which finds this
   * service or starts it with this very launcher. The bridge ships in the package beside the
   * service but is not part of it: it is looked up, not linked. Nothing may reach stdout first.
   */
  private static void mcp(String[] args) throws Exception {
    String launcher = System.getProperty("jpackage.app-path");
    if (launcher != null && System.getProperty("steward.service.command") == null)
      System.setProperty(
          "steward.service.command",
          dev.steward.protocol.json.Json.mapper().writeValueAsString(java.util.List.of(launcher)));
    Class<?> bridge;
    try {
      bridge = Class.forName("dev.steward.mcp.McpBridge");
    } catch (ClassNotFoundException e) {
      System.err.println("steward-service: this installation has no MCP bridge; run ./steward mcp"
          + " from a source checkout");
      System.exit(2);
      return;
    }
    bridge.getMethod("main", String[].class).invoke(null, (Object) args);
  }

  /**
   * {@code steward-service --train}: the training run of the packaged runtime's ahead-of-time
   * cache (ADR 29). The service runs its idle warm-up to the end on a throw-away home and stops;
   * the JVM, started with {@code -XX:AOTCacheOutput}, then writes the classes it loaded and linked
   * and the profiles of the methods it ran.
   */
  private static void train(StewardService service) throws Exception {
    int ran;
    try {
      ran = service.warmedUp().get(5, java.util.concurrent.TimeUnit.MINUTES);
    } finally {
      service.close();
    }
    if (ran <= 0) {
      System.err.println("steward-service: the warm-up ran no call (-Dsteward.warmup.rounds?)");
      System.exit(1);
    }
    System.out.println("steward-service: trained on " + ran + " warm-up calls");
    System.out.flush();
    System.exit(0);
  }

  static long sinceStart() {
    return (System.nanoTime() - MAIN_STARTED) / 1_000_000;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("mcp")) {
      mcp(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    // H2's LOWER follows the default locale: under a Turkish one LOWER('INVOICE') is "ınvoıce",
    // and the audit log's text search, lower-cased by Locale.ROOT, would miss the row.
    java.util.Locale.setDefault(java.util.Locale.ROOT);
    JETTY.setLevel(Level.WARNING);
    MCP_SDK.setLevel(Level.SEVERE);
    // Jetty pads its queues to cache lines; unless told how many references fill one, it asks the
    // HotSpot diagnostic MBean, which brings up JMX and its ~200 classes: ~80 ms of every start.
    // 16 is right for compressed references, which a heap under 32 GB always has.
    if (System.getProperty(JETTY_REFS_PER_LINE) == null)
      System.setProperty(JETTY_REFS_PER_LINE, "16");
    StewardService.Options options = StewardService.Options.defaults();
    String port = System.getenv("STEWARD_PORT");
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--port") && i + 1 < args.length) port = args[++i];
    }
    if (port != null && !port.isBlank()) options = options.withPort(Integer.parseInt(port.trim()));
    if ("sync".equalsIgnoreCase(System.getenv("STEWARD_AUDIT_DURABILITY")))
      options = options.withDurability(Durability.SYNC);
    options = options.withWarmupRounds(
        Integer.getInteger(WARMUP_ROUNDS_PROPERTY, options.warmupRounds()));
    boolean train = java.util.Arrays.asList(args).contains("--train");
    if (train && System.getenv("STEWARD_HOME") == null) {
      System.err.println("steward-service: --train runs on a throw-away home: set STEWARD_HOME");
      System.exit(2);
      return;
    }
    StewardHome home = StewardHome.fromEnvironment();
    if (train && Files.exists(home.policyFile())) {
      // A training run starts a whole service; never on a home someone uses.
      System.err.println(
          "steward-service: --train runs on a new, empty home; " + home.policyFile() + " exists");
      System.exit(2);
      return;
    }
    StewardService service;
    try {
      service = StewardService.start(home, options);
    } catch (Exception e) {
      System.err.println("steward-service: cannot start: " + e.getMessage());
      System.exit(1);
      return;
    }
    if (train) {
      train(service);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(
            () -> {
              service.close();
              stopped.countDown();
            },
            "shutdown"));
    System.out.println("steward-service listening on ws://127.0.0.1:" + service.port()
        + "/rpc (home: " + home.config().getParent() + "), ready " + ServiceMain.sinceStart()
        + " ms after main");
    System.out.flush();
    stopped.await();
  }
}
