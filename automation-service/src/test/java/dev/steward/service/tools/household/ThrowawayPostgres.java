package dev.steward.service.tools.household;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real PostgreSQL cluster for one test class: loopback only, fresh temp folder, deleted on
 * close. Uses Debian's server binaries rather than a container so the tests need no Docker.
 */
public final class ThrowawayPostgres implements AutoCloseable {

  private static final String ADMIN = "steward_admin";

  private final Path bin;
  private final Path dir;
  private final boolean asPostgres;
  private final String password;
  private final Thread hook = new Thread(this::stopQuietly, "throwaway-postgres-stop");
  private int port;
  private boolean closed;

  private ThrowawayPostgres(Path bin, Path dir, boolean asPostgres, String password) {
    this.bin = bin;
    this.dir = dir;
    this.asPostgres = asPostgres;
    this.password = password;
  }

  public static ThrowawayPostgres start() throws Exception {
    Path bin = binaries();
    // initdb and postgres refuse to run as root, so on CI the server runs as Debian's postgres
    // user, which must own the whole folder (a root-owned 0700 temp folder is closed to it).
    boolean asPostgres = "0".equals(exec(Path.of("/"), List.of("id", "-u")).trim());
    Path dir = Files.createTempDirectory("steward-pg");
    var pg = new ThrowawayPostgres(bin, dir, asPostgres, randomPassword());
    try {
      Path pwfile = dir.resolve("pwfile");
      Files.writeString(pwfile, pg.password + "\n");
      Files.createDirectory(dir.resolve("socket"));
      if (asPostgres) exec(dir, List.of("chown", "-R", "postgres:postgres", dir.toString()));
      pg.server(
          "initdb",
          "-D",
          pg.data(),
          "-U",
          ADMIN,
          "--auth=scram-sha-256",
          "--pwfile=" + pwfile,
          "-E",
          "UTF8",
          "--locale=C",
          "--no-sync");
      Files.delete(pwfile);
      pg.startServer();
      Runtime.getRuntime().addShutdownHook(pg.hook);
      // As PostgreSQL 15 and later have it (the household pack refuses a schema others may
      // create in): a host whose newest server is 14 or older makes its databases so too.
      pg.execute("template1", "REVOKE CREATE ON SCHEMA public FROM PUBLIC");
      return pg;
    } catch (Exception e) {
      pg.stopQuietly();
      throw e;
    }
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  public String adminUser() {
    return ADMIN;
  }

  public String adminPassword() {
    return password;
  }

  public void createDatabase(String name) throws SQLException {
    execute("postgres", "CREATE DATABASE " + identifier(name));
  }

  /** A plain application role: may log in, nothing more. */
  public void createRole(String name, String rolePassword) throws SQLException {
    execute(
        "postgres",
        "CREATE ROLE " + identifier(name) + " LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD "
            + literal(rolePassword));
  }

  public void execute(String database, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(jdbcUrl(database), ADMIN, password);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is already running and does the same work.
    }
    stop();
  }

  private synchronized void stop() throws IOException {
    if (closed) return;
    closed = true;
    try {
      if (Files.exists(dir.resolve("data/postmaster.pid")))
        server("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping PostgreSQL", e);
    } finally {
      deleteTree(dir);
    }
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (Exception e) {
      System.err.println("could not stop the test PostgreSQL in " + dir + ": " + e);
    }
  }

  private void startServer() throws IOException, InterruptedException {
    // A free port can be taken between our probe and the server's bind: try a second one.
    for (int attempt = 1; ; attempt++) {
      port = freePort();
      String options = "-c listen_addresses=127.0.0.1 -c port=" + port
          + " -c unix_socket_directories='" + dir.resolve("socket") + "'"
          + " -c fsync=off -c full_page_writes=off -c synchronous_commit=off";
      Path log = dir.resolve("server.log");
      try {
        server(
            "pg_ctl", "-D", data(), "-l", log.toString(), "-w", "-t", "60", "start", "-o", options);
        return;
      } catch (IOException e) {
        String tail = tail(log);
        if (attempt == 1 && tail.contains("already in use")) continue;
        throw new IOException(e.getMessage() + "\n--- server log ---\n" + tail, e);
      }
    }
  }

  private String data() {
    return dir.resolve("data").toString();
  }

  private String server(String program, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    if (asPostgres) cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
    cmd.add(bin.resolve(program).toString());
    cmd.addAll(List.of(args));
    return exec(dir, cmd);
  }

  // Runs in the cluster folder: as postgres, a working folder it cannot enter (/root/...) makes
  // initdb and pg_ctl print "could not change directory" warnings into the failure output.
  private static String exec(Path cwd, List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd)
        .directory(cwd.toFile())
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed:\n" + out);
    return out;
  }

  private static Path binaries() throws IOException {
    Path root = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(root)) {
      try (Stream<Path> versions = Files.list(root)) {
        var newest = versions
            .map(v -> v.resolve("bin"))
            .filter(b -> Files.isExecutable(b.resolve("initdb")))
            .max(Comparator.comparing(ThrowawayPostgres::version));
        if (newest.isPresent()) return newest.get();
      }
    }
    throw new IllegalStateException(
        "the PostgreSQL tests need Debian's postgresql package (apt install postgresql)");
  }

  private static double version(Path bin) {
    try {
      return Double.parseDouble(bin.getParent().getFileName().toString());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static int freePort() throws IOException {
    try (var s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static String randomPassword() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static String literal(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) return "(no server log)";
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) return;
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
