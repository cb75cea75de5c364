package dev.steward.service.tools.mcp;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.protocol.tool.McpToolNames;
import dev.steward.protocol.util.DaemonThreads;
import dev.steward.service.tools.PackSecrets;
import dev.steward.service.tools.Tool;
import dev.steward.service.tools.ToolFamily;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * The servers of the policy's {@code mcp_servers}, kept in step with it: a server added is
 * started, one removed is stopped, one whose entry changed is restarted. Their tools form the
 * family {@code mcp.}: listed once the user accepted them, found by name at any time.
 */
final class McpServers implements ToolFamily, AutoCloseable {

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(McpServers.class.getName());

  private final Supplier<PolicyDocument> policy;
  private final PackSecrets secrets;
  private final ServerLink.Setting setting;
  private final ExecutorService starts;
  private final ScheduledExecutorService timer;
  private final Map<String, ServerLink> links = new LinkedHashMap<>();
  private boolean closed;

  McpServers(
      Supplier<PolicyDocument> policy,
      java.nio.file.Path folder,
      List<java.nio.file.Path> privateFolders,
      java.nio.file.Path userHome,
      Map<String, String> environment,
      PackSecrets secrets,
      Runnable toolsChanged,
      dev.steward.service.tools.BrowserReturns returns) {
    this.policy = policy;
    this.secrets = secrets;
    this.starts = Executors.newCachedThreadPool(DaemonThreads.named("mcp-start"));
    this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("mcp-restart"));
    this.setting = new ServerLink.Setting(
        folder,
        // Looked for once, when the first server starts (a service with none never spawns bwrap).
        memoize(() -> Sandbox.find(
            privateFolders,
            () -> RunPlaces.of(
                userHome,
                environment,
                System.getProperty("java.class.path", ""),
                java.nio.file.Path.of(System.getProperty("java.home", "/")),
                // Playwright's driver where the package ships it; one unpacked under data/ is
                // hidden with the rest of it.
                dev.steward.service.util.PlaywrightDriver.named()))),
        environment,
        new Pins(folder.resolve("pins.json")),
        policy,
        starts,
        timer,
        toolsChanged,
        new SignIns(
            secrets,
            new SignInHttp(),
            returns::address,
            name -> link(name).ifPresent(ServerLink::restart),
            (name, url) -> link(name).map(l -> url.equals(l.entry().url())).orElse(false),
            java.time.Clock.systemUTC()));
    returns.answerWith(setting.signIns()::arrive);
  }

  SignIns signIns() {
    return setting.signIns();
  }

  private static <T> Supplier<T> memoize(Supplier<T> once) {
    return new Supplier<>() {
      private @org.jspecify.annotations.Nullable T value;

      @Override
      public synchronized T get() {
        T v = value;
        if (v == null) value = v = once.get();
        return v;
      }
    };
  }

  boolean sandboxed() {
    return setting.sandbox().get().available();
  }

  @Override
  public String prefix() {
    return McpToolNames.PREFIX;
  }

  /** Starts, stops and restarts servers so that they are those of the policy in force. */
  synchronized void follow() {
    if (closed) return;
    // Each server as it starts: its entry with the environment values kept in secrets.json, so a
    // changed key restarts it as a changed entry does.
    Map<String, McpEnv.Row> kept = McpEnv.read(secrets);
    Map<String, PolicyDocument.McpServer> wanted = new LinkedHashMap<>();
    policy.get().mcpServers().forEach((name, entry) -> {
      try {
        wanted.put(name, McpEnv.effective(name, entry, kept));
      } catch (IllegalArgumentException e) {
        // Kept values that no longer pass the entry's rules (a file edited by hand) are not
        // given to the server; the others still start. The message quotes no value.
        LOG.warning(
            "the values kept for the MCP server “" + name + "” are not used: " + e.getMessage());
        wanted.put(name, entry);
      }
    });
    List<ServerLink> stopping = new ArrayList<>();
    for (var it = links.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      PolicyDocument.McpServer entry = wanted.get(e.getKey());
      if (entry == null || !entry.equals(e.getValue().entry())) {
        stopping.add(e.getValue());
        it.remove();
        if (entry == null) {
          setting.pins().forget(e.getKey());
          setting.signIns().forget(e.getKey());
        }
      }
    }
    // Stopping waits for a child to end; it runs off the caller's thread (a policy update).
    if (!stopping.isEmpty()) starts.execute(() -> stopping.forEach(ServerLink::close));
    for (var e : wanted.entrySet()) {
      if (!links.containsKey(e.getKey())) {
        ServerLink link = new ServerLink(e.getKey(), e.getValue(), setting);
        links.put(e.getKey(), link);
        link.start();
      }
    }
    setting.toolsChanged().run();
  }

  /** The policy's entry for server {@code name}, as the user gave it (without kept values). */
  Optional<PolicyDocument.McpServer> entry(String name) {
    return Optional.ofNullable(policy.get().mcpServers().get(name));
  }

  synchronized List<ServerLink> links() {
    return List.copyOf(links.values());
  }

  synchronized Optional<ServerLink> link(String name) {
    return Optional.ofNullable(links.get(name));
  }

  @Override
  public List<Tool> listed() {
    List<Tool> out = new ArrayList<>();
    for (ServerLink link : links()) {
      for (McpTool t : link.tools().values()) if (t.offered()) out.add(t);
    }
    return out;
  }

  @Override
  public Optional<Tool> find(String name) {
    for (ServerLink link : links()) {
      McpTool t = link.tools().get(name);
      if (t != null) return Optional.of(t);
    }
    return Optional.empty();
  }

  @Override
  public void close() {
    List<ServerLink> all;
    synchronized (this) {
      closed = true;
      all = List.copyOf(links.values());
      links.clear();
    }
    all.parallelStream().forEach(ServerLink::close);
    starts.shutdownNow();
    timer.shutdownNow();
  }
}
