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
  /** PostgreSQL's answer when a statement ran past its statement timeout. */
  private static final String QUERY_CANCELED = "57014";

  private final JdbcConnectionPool pool;
  private final Clock clock;
  private final String describe;
  private final boolean postgres;
  /** What a driver's text must never pass on (SPEC §13): the user name and password. */
  private final List<@Nullable String> secrets;

  private HouseholdDb(
      JdbcConnectionPool pool,
      Clock clock,
      String describe,
      boolean postgres,
      List<@Nullable String> secrets) {
    this.pool = pool;
    this.clock = clock;
    this.describe = describe;
    this.postgres = postgres;
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
    return open(ds, false, clock, "the household database in " + folder);
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
    JdbcConnectionPool pool = JdbcConnectionPool.create(source(url, user, password));
    pool.setMaxConnections(8);
    try {
      try (Connection c = pool.getConnection();
          Statement st = c.createStatement()) {
        try (ResultSet rs = st.executeQuery(
            "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")) {
          if (rs.next() && rs.getBoolean(1)) {
            throw new ToolFailure(
                ToolErrorCodes.UNAVAILABLE,
                describe + ": its user (household username) is not bound by row-level security"
                    + " (a superuser, or BYPASSRLS); give each household a plain role of its"
                    + " own");
          }
        }
        try (ResultSet rs =
            st.executeQuery("SELECT COUNT(*) FROM pg_tables WHERE tablename = 'recipe'"
                + " AND schemaname = current_schema() AND tableowner = current_user")) {
          if (rs.next() && rs.getLong(1) > 0) {
            throw new ToolFailure(
                ToolErrorCodes.UNAVAILABLE,
                describe + ": its user (household username) owns the household tables and"
                    + " could turn row-level security off; use that role only to set the database up"
                    + " (owner_username, owner_password) and give each household a role of its own");
          }
        }
      }
      if (flyway(pool, true).info().pending().length > 0) {
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
    return new HouseholdDb(pool, clock, describe, true, Arrays.asList(user, password));
  }

  /** Brings a shared database's schema up to date, signed in as the role that owns it. */
  static void migrate(String url, String owner, String password) throws ToolFailure {
    JdbcConnectionPool pool = JdbcConnectionPool.create(source(url, owner, password));
    try {
      flyway(pool, true).migrate();
    } catch (FlywayException e) {
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          "the household database " + shown(url) + " cannot be set up: "
              + DriverText.of(e, Arrays.asList(owner, password)));
    } finally {
      pool.dispose();
    }
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

  /** A URL as messages show it: where the database is, never its parameters. */
  static String shown(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q);
  }

  private static Flyway flyway(javax.sql.DataSource ds, boolean postgres) {
    List<String> locations = new ArrayList<>(List.of(MIGRATIONS + "common"));
    if (postgres) locations.add(MIGRATIONS + "postgresql");
    return Flyway.configure(HouseholdDb.class.getClassLoader())
        .dataSource(ds)
        .locations(locations.toArray(String[]::new))
        .load();
  }

  private static HouseholdDb open(
      ConnectionPoolDataSource ds, boolean postgres, Clock clock, String describe)
      throws ToolFailure {
    JdbcConnectionPool pool = JdbcConnectionPool.create(ds);
    pool.setMaxConnections(8);
    try {
      flyway(pool, postgres).migrate();
    } catch (FlywayException e) {
      pool.dispose();
      throw new ToolFailure(
          ToolErrorCodes.UNAVAILABLE,
          describe + " cannot be opened: " + DriverText.of(e, List.of()));
    }
    return new HouseholdDb(pool, clock, describe, postgres, List.of());
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
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1 && deadline - System.nanoTime() < LAST_TRY_NANOS) break;
      stopped();
      try (Connection c = pool.getConnection()) {
        c.setAutoCommit(false);
        try {
          bound(c, deadline);
          T result = work.apply(new Tx(c, clock.instant(), afterUntrusted));
          stopped();
          c.commit();
          return result;
        } catch (SQLException | ToolFailure | RuntimeException e) {
          c.rollback();
          throw e;
        }
      } catch (SQLException e) {
        if (!retryable(e)) throw failure(e);
        last = e;
      }
    }
    throw failure(java.util.Objects.requireNonNull(last));
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
    try (var st = c.prepareStatement("SELECT set_config('statement_timeout', ?, true)")) {
      st.setString(1, Long.toString(left));
      st.executeQuery().close();
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
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        bound(c, System.nanoTime() + BUDGET_NANOS);
        return work.apply(new Tx(c, clock.instant(), false));
      } finally {
        try {
          c.rollback();
        } catch (SQLException e) {
          // what the look met is the answer; a broken connection is the pool's to drop
        }
      }
    } catch (SQLException e) {
      if (!retryable(e)) throw failure(e);
      return null;
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
  public void close() {
    pool.dispose();
  }
}
