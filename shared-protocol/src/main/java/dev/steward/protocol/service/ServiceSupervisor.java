package dev.steward.protocol.service;

import dev.steward.protocol.client.ClientException;
import dev.steward.protocol.client.Endpoint;
import dev.steward.protocol.client.StewardClient;
import dev.steward.protocol.home.StewardPlaces;
import dev.steward.protocol.method.Role;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Finds the service through {@code run/service.json}, starts it as its own process when it is
 * absent or stale, and hands out connections that come back by themselves: a reconnecting client
 * asks {@link #endpoint} again, which restarts a service that died.
 */
public final class ServiceSupervisor implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final StewardPlaces places;
  private final List<String> command;
  private final Map<String, String> environment;
  private final List<Consumer<ServiceState>> listeners = new CopyOnWriteArrayList<>();
  private final List<StewardClient> clients = new CopyOnWriteArrayList<>();
  private @Nullable Process child;
  private volatile boolean closed;
  private volatile boolean leaveRunning;

  /**
   * @param command how to start the service (e.g. {@code [steward-service]}); never run through a
   *     shell
   * @param environment variables added to the service's environment
   */
  public ServiceSupervisor(
      StewardPlaces places, List<String> command, Map<String, String> environment) {
    this.places = places;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
  }

  /**
   * A service this supervisor starts keeps running after {@link #close}: the MCP bridge lives
   * only as long as its client's session, the service as long as the desktop's.
   */
  public ServiceSupervisor leavingItRunning() {
    leaveRunning = true;
    return this;
  }

  public void onState(Consumer<ServiceState> listener) {
    listeners.add(listener);
  }

  /** A running service's address: the one in {@code service.json} if it answers, else a new one. */
  public synchronized ServiceInfo ensureRunning() {
    if (closed) throw new ServiceUnavailableException("Steward is shutting down");
    Optional<ServiceInfo> current = ServiceInfo.read(places.serviceInfoFile());
    if (current.isPresent()
        && current.get().processAlive()
        && accepts(current.get().port())) {
      return current.get();
    }
    return start(current.orElse(null));
  }

  /** The endpoint for a role, starting the service first when needed. */
  public Endpoint endpoint(Role role) {
    ServiceInfo info = ensureRunning();
    Path secretFile = places.secretFile(role);
    try {
      return Endpoint.loopback(
          info.port(), Files.readString(secretFile, StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      throw new ServiceUnavailableException("cannot read " + secretFile + ": " + e.getMessage(), e);
    }
  }

  /**
   * A client in {@code role} that reconnects by itself; a lost service is restarted on the way.
   * The ui connection reports the state listeners see.
   */
  public StewardClient connect(Role role, String clientName) {
    StewardClient.Options options = StewardClient.Options.defaults()
        .withClientName(clientName)
        .withReconnect(true)
        .withCallTimeout(Duration.ofMinutes(5));
    StewardClient client;
    try {
      client = StewardClient.connect(
          () -> {
            try {
              return endpoint(role);
            } catch (ServiceUnavailableException e) {
              throw new ClientException(e.getMessage(), e);
            }
          },
          options);
    } catch (ClientException e) {
      throw new ServiceUnavailableException(e.getMessage(), e);
    }
    if (role == Role.UI) {
      client.onState(s -> {
        switch (s) {
          case CONNECTED -> publish(ServiceState.CONNECTED);
          case DISCONNECTED -> publish(ServiceState.RECONNECTING);
          case CLOSED -> {}
        }
      });
      publish(ServiceState.CONNECTED);
    }
    clients.add(client);
    return client;
  }

  private ServiceInfo start(@Nullable ServiceInfo stale) {
    publish(stale == null ? ServiceState.STARTING : ServiceState.RECONNECTING);
    if (command.isEmpty()) {
      throw new ServiceUnavailableException(
          "no service is running and no command to start one was configured");
    }
    Path log = places.run().resolve("service.log");
    Process process;
    try {
      Files.createDirectories(places.run());
      ProcessBuilder builder = new ProcessBuilder(command);
      builder.environment().putAll(environment);
      builder
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
      process = builder.start();
    } catch (IOException e) {
      publish(ServiceState.UNAVAILABLE);
      throw new ServiceUnavailableException(
          "cannot start the service (" + String.join(" ", command) + "): " + e.getMessage(), e);
    }
    child = process;
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<ServiceInfo> info = ServiceInfo.read(places.serviceInfoFile());
      if (info.isPresent()
          && !info.get().equals(stale)
          && info.get().processAlive()
          && accepts(info.get().port())) {
        return info.get();
      }
      if (!process.isAlive()) {
        publish(ServiceState.UNAVAILABLE);
        throw new ServiceUnavailableException(
            "the service stopped while starting (exit " + process.exitValue() + "): " + tail(log));
      }
      sleep(50);
    }
    process.destroy();
    publish(ServiceState.UNAVAILABLE);
    throw new ServiceUnavailableException(
        "the service did not start within " + START_TIMEOUT.toSeconds() + " s; see " + log);
  }

  /** The process this supervisor started, if any (tests kill it to check recovery). */
  public synchronized Optional<ProcessHandle> startedProcess() {
    Process p = child;
    return p == null ? Optional.empty() : Optional.of(p.toHandle());
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join(
          "\n", new ArrayList<>(lines.subList(Math.max(0, lines.size() - 5), lines.size())));
    } catch (IOException e) {
      return "(no log at " + log + ")";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException("interrupted while starting the service", e);
    }
  }

  private void publish(ServiceState state) {
    listeners.forEach(l -> l.accept(state));
  }

  /** Closes the connections and stops the service if this supervisor started it. */
  @Override
  public void close() {
    closed = true;
    clients.forEach(StewardClient::close);
    Process p;
    synchronized (this) {
      p = child;
    }
    if (p != null && p.isAlive() && !leaveRunning) {
      p.destroy(); // SIGTERM: the service closes its audit log and removes service.json
      try {
        if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }
}
