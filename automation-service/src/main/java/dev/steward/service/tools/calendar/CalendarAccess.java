package dev.steward.service.tools.calendar;

import dev.steward.protocol.policy.PolicyDocument;
import dev.steward.service.tools.PackSecrets;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one calendar the pack works on, as the user set it up now: its address from the policy,
 * its account from {@code config/secrets.json}. Read at each call, so a change in Settings counts
 * at once.
 */
final class CalendarAccess {

  static final String SECTION = "calendar";

  private final Supplier<PolicyDocument> policy;
  private final PackSecrets secrets;
  private final OwnEvents own;
  private final Parsed parsed = new Parsed();
  private final Supplier<ZoneId> zone;
  // HTTP/1.1: an http:// server asked to upgrade to HTTP/2 may just close the connection.
  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10))
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();

  CalendarAccess(
      Supplier<PolicyDocument> policy, PackSecrets secrets, OwnEvents own, Supplier<ZoneId> zone) {
    this.policy = policy;
    this.secrets = secrets;
    this.own = own;
    this.zone = zone;
  }

  /** Why the tools cannot run (nothing set up), or empty. */
  Optional<String> unavailable() {
    if (policy.get().calendar().url() == null) {
      return Optional.of("no calendar is set up: in Settings → Calendar, give the CalDAV address of"
          + " the one calendar Steward may use, with its user name and app password");
    }
    if (secrets.get(SECTION, "username").isEmpty()
        || secrets.get(SECTION, "password").isEmpty()) {
      return Optional.of(
          "the calendar's user name or password is missing: set them in Settings →" + " Calendar");
    }
    return Optional.empty();
  }

  /**
   * Whether the calendar is on another machine: then every call sends its words there, a read's
   * dates as much as a new event (SPEC §10 {@code sends}), as a household database's calls do.
   */
  boolean offMachine() {
    String url = policy.get().calendar().url();
    return url != null && !dev.steward.protocol.util.Loopback.url(url);
  }

  /** The calendar, for a call the gate found available. */
  CalDav dav() {
    String url =
        java.util.Objects.requireNonNull(policy.get().calendar().url(), "checked as available");
    return new CalDav(
        client,
        URI.create(url),
        secrets.get(SECTION, "username").orElse(""),
        secrets.get(SECTION, "password").orElse(""));
  }

  /** Finding the account's calendars on a server, with the saved user name and password. */
  Optional<Discovery> discovery(URI server) {
    Optional<String> user = secrets.get(SECTION, "username");
    Optional<String> password = secrets.get(SECTION, "password");
    if (user.isEmpty() || password.isEmpty()) return Optional.empty();
    return Optional.of(new Discovery(client, server, user.get(), password.get()));
  }

  OwnEvents own() {
    return own;
  }

  /** The objects already read, by version. */
  Parsed parsed() {
    return parsed;
  }

  /** The user's time zone: times without an offset or a zone of their own are taken in it. */
  ZoneId zone() {
    return zone.get();
  }
}
