package dev.steward.service.tools.household;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.ToolFailure;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sql.ConnectionPoolDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.h2.jdbcx.JdbcConnectionPool;
import org.h2.jdbcx.JdbcDataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGConnectionPoolDataSource;

/**
 * The household database: H2 in the data folder, or a PostgreSQL database a household shares.
 * Opening it brings its schema up to date (Flyway, the same versioned migrations on both, with
 * row-level security added on PostgreSQL). Connections are pooled: a sign-in to PostgreSQL costs
 * more than the work of most calls.
 */
final class HouseholdDb implements AutoCloseable {

  /** Work in one transaction. */
  @FunctionalInterface
  interface Work<T> {
    T apply(Tx tx) throws SQLException, ToolFailure;
  }

  /** Flyway tells of every migration it checks; only its warnings belong in the service's log. */
  private static final java.util.logging.Logger FLYWAY_LOG = quiet("org.flywaydb");

  private static final String MIGRATIONS = "classpath:dev/steward/service/tools/household/db/";
  private static final int ATTEMPTS = 5;
  /**
   * A write waits for another's row locks this long; a connection left inside a transaction (its
   * caller stopped) gives its locks up after the second.
   */
  private static final String SESSION =
      "-c lock_timeout=10000 -c idle_in_transaction_session_timeout=30000";
  /** Seconds to reach the server and to sign in; a socket read waits at most the third. */
  private static final int CONNECT_SECONDS = 10;

  private static final int SOCKET_SECONDS = 30;
  /** The time a call without one of its own (a look before a dialog, an undo) may take. */
  static final long BUDGET_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(25);
  /** Less than this left, a lost race is not run again: it could not finish in time. */
  private static final long LAST_TRY_NANOS =
      java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(500);
  /** PostgreSQL's answer when a lock was not had within the lock timeout. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";
  /** Either database's answer when a statement ran past its timeout. */
  private static final String QUERY_CANCELED = Tx.TIMED_OUT;

  /** Connections a database keeps open for calls. */
  private static final int CONNECTIONS = 8;

  private final ConnectionPoolDataSource source;
  /**
   * Renewed when a connection is found gone (a server restarted, a session ended): H2's pool
   * never hears of a broken connection and would hand it out again, and again.
   */
  private volatile JdbcConnectionPool pool;
  /**
   * One per pooled connection; a call takes one before its connection, waiting at most until its
   * deadline and never past a Stop (H2's pool waits 30 s for a connection and swallows the
   * interrupt).
   */
  private final java.util.concurrent.Semaphore permits =
      new java.util.concurrent.Semaphore(CONNECTIONS);

  private boolean closed;

  private final Clock clock;
  private final String describe;
  private final boolean postgres;
  /** What a driver's text must never pass on (SPEC §13): the user name and password. */
  private final List<@Nullable String> secrets;

  /**
   * On PostgreSQL, built-in functions and operators before the tables' schema, and no "$user"
   * schema at all: of two with the same argument types, the first on the path wins
   * (noStrangersCode refuses a schema where others could add ones with other types). Set in each
   * transaction, not at sign-in: a pooler such as PgBouncer refuses a search path given there.
   */
  private final @Nullable String searchPath;

  private HouseholdDb(
      ConnectionPoolDataSource source,
      JdbcConnectionPool pool,
      Clock clock,
      String describe,
      @Nullable String searchPath,
      List<@Nullable String> secrets) {
    this.source = source;
    this.pool = pool;
    this.clock = clock;
    this.describe = describe;
    this.postgres = searchPath != null;
    this.searchPath = searchPath;
    this.secrets = secrets;
  }

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
    log.setLevel(java.util.logging.Level.WARNING);
    return log;
  }

  /** The database on this machine, in {@code folder}. */
  static HouseholdDb local(Path folder, Clock clock) throws ToolFailure {
    JdbcDataSource ds = new JdbcDataSource();
    // LOCK_TIMEOUT: a write waits for another's row locks this long before it gives up.
    ds.setURL(
        "jdbc:h2:file:" + folder.resolve("household").toAbsolutePath() + ";LOCK_TIMEOUT=10000");
    ds.setUser("household");
    ds.setPassword("");
    return open(ds, clock, "the household database in " + folder);
  }

  /**
   * A shared PostgreSQL database; the role it signs in as is the household. That role must be one
   * row-level security binds: not a superuser, not one that bypasses it, not the tables' owner
   * (who could turn it off). The schema must be up to date: {@link #migrate} with the owner's
   * role brings it there.
   */
  static HouseholdDb postgres(String url, String user, String password, Clock clock)
      throws ToolFailure {
    String describe = "the household database " + shown(url);
    String schema = schema(url);
    PGConnectionPoolDataSource source = source(url, user, password);
    JdbcConnectionPool pool = pool(source);
    try {
      try (Connection c = pool.getConnection();
          Statement st = c.createStatement()) {
        try (ResultSet rs =
            st.executeQuery("SELECT rolsuper OR rolbypassrls FROM pg_catalog.pg_roles"
                + " WHERE rolname = current_user")) {
          if (rs.next() && rs.getBoolean(1)) {
            throw new ToolFailure(
                ToolErrorCodes.UNAVAILABLE,
                describe + ": its user (household username) is not bound by row-level security"
                    + " (a superuser, or BYPASSRLS); give each household a plain role of its"
                    + " own");
          }
        }
        String owner = null;
        try (var q = c.prepareStatement("SELECT tableowner, CAST(current_user AS text)"
            + " FROM pg_catalog.pg_tables WHERE schemaname = CAST(? AS name)"
            + " AND tablename = CAST('recipe' AS name)")) {
          q.setString(1, schema);
          try (ResultSet rs = q.executeQuery()) {
            if (rs.next()) {
              owner = rs.getString(1);
              if (owner.equals(rs.getString(2))) {
                throw new ToolFailure(
                    ToolErrorCodes.UNAVAILABLE,
                    describe + ": its user (household username) owns the household tables and"
                        + " could turn row-level security off; use that role only to set the"
                        + " database up (owner_username, owner_password) and give each household"
                        + " a role of its own");
              }
            }
          }
        }
        noStrangersCode(c, schema, owner, describe);
      }
      if (flyway(pool, schema).info().pending().length > 0) {
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE,
            describe + " is not set up for this version of Steward: set the household's"
                + " owner_username and owner_password (secrets.set) so Steward can bring it up"
                + " to date");
      }
    } catch (SQLException | FlywayException e) {
      pool.dispose();
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          describe + " cannot be opened: " + DriverText.of(e, Arrays.asList(user, password)));
    } catch (ToolFailure e) {
      pool.dispose();
      throw e;
    }
    return new HouseholdDb(
        source,
        pool,
        clock,
        describe,
        "pg_catalog, " + quoted(schema),
        Arrays.asList(user, password));
  }

  /** Brings a shared database's schema up to date, signed in as the role that owns it. */
  static void migrate(String url, String owner, String password) throws ToolFailure {
    String describe = "the household database " + shown(url);
    String schema = schema(url);
    JdbcConnectionPool pool = JdbcConnectionPool.create(source(url, owner, password));
    try {
      // Flyway calls set_config with a varchar: a household's own set_config would run with the
      // owner's rights, who can turn row-level security off.
      try (Connection c = pool.getConnection()) {
        noStrangersCode(c, schema, null, describe);
      }
      flyway(pool, schema).migrate();
    } catch (SQLException | FlywayException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          describe + " cannot be set up: " + DriverText.of(e, Arrays.asList(owner, password)));
    } finally {
      pool.dispose();
    }
  }

  /**
   * Refuses a database whose tables' schema another household can put functions or operators in,
   * or already has (CVE-2018-1058): PostgreSQL picks the one whose argument types match exactly
   * wherever it is on the search path, so {@code public.=(varchar,varchar)} would run in every
   * {@code id = ?} of every household, with its rights. PostgreSQL 14 and older let every role
   * create in {@code public}. Trusted: {@code owner} (the tables' owner; null: the signed-in role),
   * superusers, and the database's owner ({@code pg_database_owner}, PostgreSQL 15's owner of
   * {@code public}). This runs before any statement that takes a parameter without a cast.
   */
  private static void noStrangersCode(
      Connection c, String schema, @Nullable String owner, String describe)
      throws SQLException, ToolFailure {
    // Casts and pg_catalog-qualified names throughout: these statements must not be the ones
    // another role's operator hijacks.
    String trusted = "COALESCE(r.rolsuper OR r.rolname = CAST('pg_database_owner' AS name)"
        + " OR r.rolname = COALESCE(CAST(? AS name), current_user), false)";
    try (var q = c.prepareStatement("SELECT"
        + " (SELECT count(*) FROM pg_catalog.pg_namespace n CROSS JOIN LATERAL"
        + " pg_catalog.aclexplode(COALESCE(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) a"
        + " LEFT JOIN pg_catalog.pg_roles r ON r.oid = a.grantee"
        + " WHERE n.nspname = CAST(? AS name) AND a.privilege_type = CAST('CREATE' AS text)"
        + " AND NOT " + trusted + "),"
        + " (SELECT count(*) FROM pg_catalog.pg_proc p"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
        + " LEFT JOIN pg_catalog.pg_roles r ON r.oid = p.proowner"
        + " WHERE n.nspname = CAST(? AS name) AND NOT " + trusted + "),"
        + " (SELECT count(*) FROM pg_catalog.pg_operator o"
        + " JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace"
        + " LEFT JOIN pg_catalog.pg_roles r ON r.oid = o.oprowner"
        + " WHERE n.nspname = CAST(? AS name) AND NOT " + trusted + ")")) {
      for (int i = 0; i < 3; i++) {
        q.setString(2 * i + 1, schema);
        q.setString(2 * i + 2, owner);
      }
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        if (rs.getLong(1) > 0) {
          throw new ToolFailure(
              ToolErrorCodes.UNAVAILABLE,
              describe + ": roles other than its tables' owner may create functions in schema "
                  + schema + " (PostgreSQL 14 and older let every role), where one household"
                  + " could plant code that runs in another's calls; its owner or a superuser"
                  + " should run REVOKE CREATE ON SCHEMA " + schema + " FROM PUBLIC");
        }
        long planted = rs.getLong(2) + rs.getLong(3);
        if (planted > 0) {
          throw new ToolFailure(
              ToolErrorCodes.UNAVAILABLE,
              describe + ": schema " + schema + " holds " + planted + " functions or operators"
                  + " made by a role other than its tables' owner, which could run in a"
                  + " household's calls; a superuser should look at them and drop them");
        }
      }
    }
  }

  /** The schema the tables are in: the URL's {@code currentSchema}, else {@code public}. */
  static String schema(String url) {
    PGConnectionPoolDataSource ds = new PGConnectionPoolDataSource();
    ds.setURL(url);
    String named = ds.getCurrentSchema();
    String first = named == null ? "" : named.split(",", -1)[0].trim();
    if (first.isEmpty()) return "public";
    if (first.length() > 1 && first.startsWith("\"") && first.endsWith("\"")) {
      return first.substring(1, first.length() - 1).replace("\"\"", "\"");
    }
    return first.toLowerCase(java.util.Locale.ROOT);
  }

  static PGConnectionPoolDataSource source(String url, String user, String password) {
    PGConnectionPoolDataSource ds = new PGConnectionPoolDataSource();
    ds.setURL(url);
    ds.setUser(user);
    ds.setPassword(password);
    // As on H2: a write waits for another household member's row locks this long, not for ever.
    // First, so that one the user's URL gives wins (PostgreSQL takes the last of a setting).
    String options = ds.getOptions();
    ds.setOptions(SESSION + (options == null || options.isBlank() ? "" : " " + options));
    // A call has 30 s and Stop (an interrupt) does not reach a thread in a socket read: these
    // bound how long a call can hang on a server that went quiet. Not the URL's to lift.
    ds.setConnectTimeout(CONNECT_SECONDS);
    ds.setLoginTimeout(CONNECT_SECONDS);
    ds.setSocketTimeout(SOCKET_SECONDS);
    ds.setTcpKeepAlive(true);
    return ds;
  }

  private static String quoted(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** A URL as messages show it: where the database is, never its parameters. */
  static String shown(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }

  /** {@code schema}: PostgreSQL's, whose search path starts with pg_catalog; null on H2. */
  private static Flyway flyway(javax.sql.DataSource ds, @Nullable String schema) {
    List<String> locations = new ArrayList<>(List.of(MIGRATIONS + "common"));
    if (schema != null) locations.add(MIGRATIONS + "postgresql");
    var config = Flyway.configure(HouseholdDb.class.getClassLoader())
        .dataSource(ds)
        .locations(locations.toArray(String[]::new));
    if (schema != null) config.defaultSchema(schema);
    return config.load();
  }

  private static HouseholdDb open(ConnectionPoolDataSource ds, Clock clock, String describe)
      throws ToolFailure {
    JdbcConnectionPool pool = pool(ds);
    try {
      flyway(pool, null).migrate();
    } catch (FlywayException e) {
      pool.dispose();
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          describe + " cannot be opened: " + DriverText.of(e, List.of()));
    }
    return new HouseholdDb(ds, pool, clock, describe, null, List.of());
  }

  /**
   * Runs {@code work} in one transaction and commits it; all or nothing. A transaction that lost
   * a race for a row (a deadlock, a serialisation failure, a duplicate key written meanwhile) is
   * run again from the start.
   */
  <T> T transaction(Work<T> work) throws ToolFailure {
    return transaction(System.nanoTime() + BUDGET_NANOS, false, work);
  }

  /**
   * As {@link #transaction(Work)}, ended by {@code deadline} ({@link System#nanoTime}): a lost
   * race is run again only while there is time, and on PostgreSQL no statement outlives it. For a
   * call in a conversation that took in untrusted content when {@code afterUntrusted}: the words
   * it writes are marked as a stranger's. A call stopped (interrupted) before it commits changes
   * nothing.
   */
  <T> T transaction(long deadline, boolean afterUntrusted, Work<T> work) throws ToolFailure {
    SQLException last = null;
    boolean renewed = false;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1 && deadline - System.nanoTime() < LAST_TRY_NANOS) break;
      stopped();
      permit(deadline);
      JdbcConnectionPool used = pool;
      boolean begun = false;
      try (Connection c = connection(used)) {
        c.setAutoCommit(false);
        try {
          bound(c, deadline);
          begun = true;
          T result = work.apply(new Tx(c, deadline, clock.instant(), afterUntrusted));
          stopped();
          c.commit();
          return result;
        } catch (SQLException | ToolFailure | RuntimeException e) {
          rollBack(c, used, e);
          throw e;
        }
      } catch (SQLException e) {
        // A connection found gone before the work began is tried once more on a fresh one;
        // once begun (a commit among it) the change may stand, and running it again could
        // double it.
        if (gone(e) && !begun && !renewed) {
          renew(used);
          renewed = true;
          last = e;
          continue;
        }
        if (!retryable(e)) throw failure(e);
        last = e;
      } finally {
        permits.release();
      }
    }
    throw failure(java.util.Objects.requireNonNull(last));
  }

  private static JdbcConnectionPool pool(ConnectionPoolDataSource ds) {
    JdbcConnectionPool pool = JdbcConnectionPool.create(ds);
    pool.setMaxConnections(CONNECTIONS);
    return pool;
  }

  /** Waits for a connection's permit until the deadline; a Stop ends the wait. */
  private void permit(long deadline) throws ToolFailure {
    try {
      if (!permits.tryAcquire(
          Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS)) {
        throw timedOut();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(
          ToolErrorCodes.CANCELLED, "the call was stopped before its change was saved");
    }
  }

  /** A connection of {@code used}, or of the pool that replaced it meanwhile. */
  private Connection connection(JdbcConnectionPool used) throws SQLException {
    try {
      return used.getConnection();
    } catch (IllegalStateException disposed) {
      JdbcConnectionPool now = pool;
      if (now == used) throw disposed;
      return now.getConnection();
    }
  }

  /**
   * Rolls back after {@code failed}, keeping it the error told: a rollback that fails too is
   * added to it, and its connection (in doubt: it may still hold the transaction) is closed
   * rather than handed out again, by renewing the pool.
   */
  private void rollBack(Connection c, JdbcConnectionPool used, Exception failed) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failed.addSuppressed(e);
      renew(used);
    }
  }

  /** The connection is gone (PostgreSQL: 08, or the server ending the session: 57P0x). */
  private static boolean gone(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("08") || state.startsWith("57P0"));
  }

  /**
   * Puts a fresh pool in {@code broken}'s place; the broken one's connections are closed as they
   * come back, never handed out again.
   */
  private synchronized void renew(JdbcConnectionPool broken) {
    if (closed || pool != broken) return;
    pool = pool(source);
    broken.dispose();
  }

  /** Stop: the caller's thread was interrupted (a time limit, the user's Stop). */
  private static void stopped() throws ToolFailure {
    if (Thread.currentThread().isInterrupted()) {
      throw new ToolFailure(
          ToolErrorCodes.CANCELLED, "the call was stopped before its change was saved");
    }
  }

  /**
   * On PostgreSQL, the transaction's statements end by the deadline, a lock wait among them: the
   * server cancels what runs past it (an interrupt does not reach a thread in a socket read).
   */
  private void bound(Connection c, long deadline) throws SQLException, ToolFailure {
    if (!postgres) return;
    long left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    if (left <= 0) throw timedOut();
    // A statement without a function call: set_config(?) would take a varchar, and another
    // role's set_config(varchar, varchar, boolean) would be picked over pg_catalog's.
    try (Statement st = c.createStatement()) {
      st.execute("SET LOCAL statement_timeout = " + left);
      st.execute("SET LOCAL search_path = " + searchPath);
    }
  }

  private ToolFailure timedOut() {
    return new ToolFailure(
        ToolErrorCodes.TIMEOUT, describe + " did not answer in time; nothing was changed");
  }

  /**
   * Runs {@code work} in one transaction and rolls it back, whatever it did: what the call would
   * meet now, and what {@code work} makes of it. A lost race or a lock not had in time is no
   * answer here (the real run tries again), so it counts as none (null).
   */
  <T> @Nullable T dryRun(Work<T> work) throws ToolFailure {
    long deadline = System.nanoTime() + BUDGET_NANOS;
    permit(deadline);
    JdbcConnectionPool used = pool;
    try (Connection c = connection(used)) {
      c.setAutoCommit(false);
      try {
        bound(c, deadline);
        return work.apply(new Tx(c, deadline, clock.instant(), false));
      } finally {
        try {
          c.rollback();
        } catch (SQLException e) {
          // What the look met is the answer. The connection may still hold the look's changes:
          // a fresh pool takes its place, and the broken one closes it as it comes back.
          renew(used);
        }
      }
    } catch (SQLException e) {
      if (gone(e)) renew(used);
      if (!retryable(e)) throw failure(e);
      return null;
    } finally {
      permits.release();
    }
  }

  private static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return state != null
        && (state.equals("40001") // serialisation failure
            || state.equals("40P01") // PostgreSQL: deadlock
            || state.equals("23505") // a key written by a transaction that committed meanwhile
            || state.equals("HYT00") // H2: lock timeout
            || state.equals(LOCK_NOT_AVAILABLE)); // PostgreSQL: lock timeout
  }

  private ToolFailure failure(SQLException e) {
    String state = e.getSQLState();
    if (QUERY_CANCELED.equals(state)) return timedOut();
    if (Tx.STOPPED.equals(state)) {
      return new ToolFailure(
          ToolErrorCodes.CANCELLED, "the call was stopped before its change was saved");
    }
    String said = DriverText.of(e, secrets);
    if (state != null && state.startsWith("23")) {
      return new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR, "the household data does not allow this (" + said + ")");
    }
    if (state != null && state.startsWith("08")) {
      return new ToolFailure(ToolErrorCodes.UNAVAILABLE, describe + " cannot be reached: " + said);
    }
    return new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR, describe + " refused the change: " + said);
  }

  @Override
  public synchronized void close() {
    closed = true;
    pool.dispose();
  }
}
