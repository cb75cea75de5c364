package dev.steward.service.tools.calendar;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real CalDAV server for one test class: Debian's Radicale on loopback, a fresh folder, users in
 * a plain htpasswd file, every request in its log (which tests read to prove what was asked).
 * What the tests themselves send carries a User-Agent of its own, so the log tells it apart.
 */
public final class ThrowawayRadicale implements AutoCloseable {

  public static final String HARNESS = "steward-test-harness";
  private static final Pattern REQUEST = Pattern.compile(
      "\\[INFO\\] (\\w+) request for '([^']*)'.*? received from \\S+(?: using '([^']*)')?");

  private final Path dir;
  private final Process process;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private ThrowawayRadicale(Path dir, Process process, int port) {
    this.dir = dir;
    this.process = process;
    this.port = port;
  }

  /** Starts Radicale with these users (name, password, name, password…). */
  public static ThrowawayRadicale start(String... users) throws Exception {
    Path dir = Files.createTempDirectory("steward-radicale");
    StringBuilder htpasswd = new StringBuilder();
    for (int i = 0; i < users.length; i += 2) {
      htpasswd.append(users[i]).append(':').append(users[i + 1]).append('\n');
    }
    Files.writeString(dir.resolve("users"), htpasswd.toString());
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("config"),
        String.join(
            "\n",
            "[server]",
            "hosts = 127.0.0.1:" + port,
            "[auth]",
            "type = htpasswd",
            "htpasswd_filename = " + dir.resolve("users"),
            "htpasswd_encryption = plain",
            "delay = 0",
            "[rights]",
            "type = owner_only",
            "[storage]",
            "filesystem_folder = " + dir.resolve("collections"),
            "[logging]",
            "level = info",
            ""));
    Process p = new ProcessBuilder("radicale", "--config", dir.resolve("config").toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("log").toFile())
        .start();
    var r = new ThrowawayRadicale(dir, p, port);
    long deadline = System.nanoTime() + 15_000_000_000L;
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return r;
      } catch (IOException e) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          String log = Files.readString(dir.resolve("log"));
          r.close();
          throw new IllegalStateException("Radicale did not start: " + log, e);
        }
        Thread.sleep(50);
      }
    }
  }

  public String base() {
    return "http://127.0.0.1:" + port;
  }

  /** The address of a user's calendar (with its trailing slash). */
  public String calendar(String user, String name) {
    return base() + "/" + user + "/" + name + "/";
  }

  public void mkcalendar(String user, String password, String name) throws Exception {
    int s = send(user, password, "MKCALENDAR", calendar(user, name), "", null).statusCode();
    if (s != 201) throw new IllegalStateException("MKCALENDAR " + name + ": " + s);
  }

  /** Stores an event as another client of the user would (a phone, a web calendar). */
  public String put(String user, String password, String calendar, String file, String ics)
      throws Exception {
    HttpResponse<String> r =
        send(user, password, "PUT", calendar(user, calendar) + file, ics, "text/calendar");
    if (r.statusCode() / 100 != 2) throw new IllegalStateException("PUT " + file + ": " + r);
    return r.headers().firstValue("ETag").orElseThrow();
  }

  /** Deletes an event as another client of the user would. */
  public void delete(String user, String password, String calendar, String file) throws Exception {
    HttpResponse<String> r =
        send(user, password, "DELETE", calendar(user, calendar) + file, "", null);
    if (r.statusCode() / 100 != 2) throw new IllegalStateException("DELETE " + file + ": " + r);
  }

  public HttpResponse<String> get(String user, String password, String url) throws Exception {
    return send(user, password, "GET", url, "", null);
  }

  /** Every request the server logged that was not the harness's own: "METHOD /path". */
  public List<String> requests() throws IOException {
    List<String> seen = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("log"), StandardCharsets.UTF_8)) {
      Matcher m = REQUEST.matcher(line);
      if (m.find() && (m.group(3) == null || !m.group(3).contains(HARNESS))) {
        seen.add(m.group(1) + " " + m.group(2));
      }
    }
    return seen;
  }

  private HttpResponse<String> send(
      String user, String password, String method, String url, String body, String type)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .method(method, HttpRequest.BodyPublishers.ofString(body))
        .header("User-Agent", HARNESS)
        .header(
            "Authorization",
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    if (type != null) b.header("Content-Type", type);
    HttpRequest request = b.build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // Radicale answers in HTTP/1.0 and closes; the JDK may reuse the closed connection once.
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    }
  }

  @Override
  public void close() throws IOException {
    process.destroy();
    try {
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
