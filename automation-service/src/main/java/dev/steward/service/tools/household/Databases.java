package dev.steward.service.tools.household;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.tools.PackContext;
import dev.steward.service.tools.ToolFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The database the policy names now: opened on first use, and opened again when the user points
 * the pack elsewhere ({@code household.db_url}). A PostgreSQL database signs in with the user name
 * and password in {@code config/secrets.json}; without them its tools are unavailable and say so.
 */
final class Databases implements AutoCloseable {

  static final Databases NONE = new Databases(null, Clock.systemUTC());

  static final String SECTION = "household";

  private final @Nullable PackContext context;
  private final Clock clock;
  private @Nullable HouseholdDb open;
  private @Nullable String openKey;
  private boolean closed;
  private final java.util.concurrent.locks.ReentrantLock opening =
      new java.util.concurrent.locks.ReentrantLock();

  Databases(@Nullable PackContext context, Clock clock) {
    this.context = context;
    this.clock = clock;
  }

  private @Nullable String url() {
    return Objects.requireNonNull(context).policy().get().household().dbUrl();
  }

  /**
   * Where the database is, without its parameters, when it is on another machine: then what the
   * tools read and write goes there (SPEC §10 {@code sends}), a search's words as much as a row.
   */
  Optional<String> remote() {
    String url = context == null ? null : url();
    return url != null && !onThisMachine(url)
        ? Optional.of(HouseholdDb.shown(url))
        : Optional.empty();
  }

  /** Whether every host of a {@code jdbc:postgresql://} URL is a loopback name or address. */
  static boolean onThisMachine(String url) {
    String rest = url.substring(url.indexOf("//") + 2);
    int end = rest.length();
    for (char stop : new char[] {'/', '?'}) {
      int at = rest.indexOf(stop);
      if (at >= 0) end = Math.min(end, at);
    }
    String hosts = rest.substring(0, end);
    if (hosts.isEmpty()) return true; // the driver's default: localhost
    for (String entry : hosts.split(",", -1)) {
      String host = entry.startsWith("[")
          ? entry.substring(1, Math.max(1, entry.indexOf(']')))
          : entry.contains(":") ? entry.substring(0, entry.indexOf(':')) : entry;
      if (!dev.steward.protocol.util.Loopback.host(host)) return false;
    }
    return true;
  }

  Optional<String> unavailable() {
    if (context == null) return Optional.of("the household pack is not started");
    if (url() == null) return Optional.empty();
    if (context.secrets().get(SECTION, "username").isEmpty()
        || context.secrets().get(SECTION, "password").isEmpty()) {
      return Optional.of(
          "the household database needs its user name and password: set them in Settings"
              + " (secrets.set household username / password)");
    }
    return Optional.empty();
  }

  HouseholdDb current() throws ToolFailure {
    PackContext ctx = Objects.requireNonNull(context, "the pack is started");
    String url = url();
    String user = ctx.secrets().get(SECTION, "username").orElse(null);
    String password = ctx.secrets().get(SECTION, "password").orElse(null);
    // New credentials sign in again: the open pool may belong to another household role.
    String key = url == null
        ? "local"
        : String.join(
            "\n",
            url,
            String.valueOf(user),
            String.valueOf(password),
            String.valueOf(ctx.secrets().get(SECTION, "owner_username").orElse(null)));
    synchronized (this) {
      HouseholdDb db = open;
      if (db != null && key.equals(openKey)) return db;
    }
    // Opened under a lock of its own, not the monitor: signing in and migrating can take seconds
    // on a slow network, and a Stop reaches a call waiting for this lock, not for a monitor.
    try {
      opening.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolFailure(
          ToolErrorCodes.CANCELLED, "the call was stopped while the household database opened");
    }
    try {
      synchronized (this) {
        HouseholdDb db = open;
        if (db != null && key.equals(openKey)) return db; // opened while this call waited
      }
      HouseholdDb opened = open(ctx, url, user, password);
      HouseholdDb stale;
      synchronized (this) {
        if (closed) {
          opened.close();
          throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, "the household pack is stopping");
        }
        stale = open;
        open = opened;
        openKey = key;
      }
      if (stale != null) stale.close();
      return opened;
    } finally {
      opening.unlock();
    }
  }

  private HouseholdDb open(
      PackContext ctx, @Nullable String url, @Nullable String user, @Nullable String password)
      throws ToolFailure {
    if (url == null) {
      Path folder = ctx.data().resolve(SECTION);
      try {
        Files.createDirectories(folder);
      } catch (IOException e) {
        throw new ToolFailure(
            ToolErrorCodes.UNAVAILABLE, "the household folder cannot be made: " + e.getMessage());
      }
      return HouseholdDb.local(folder, clock);
    }
    if (user == null || password == null) {
      throw new ToolFailure(ToolErrorCodes.UNAVAILABLE, unavailable().orElse("no credentials"));
    }
    String owner = ctx.secrets().get(SECTION, "owner_username").orElse(null);
    String ownerPassword = ctx.secrets().get(SECTION, "owner_password").orElse(null);
    if (owner != null && ownerPassword != null) HouseholdDb.migrate(url, owner, ownerPassword);
    return HouseholdDb.postgres(url, user, password, clock);
  }

  @Override
  public synchronized void close() {
    closed = true;
    HouseholdDb db = open;
    open = null;
    openKey = null;
    if (db != null) db.close();
  }
}
