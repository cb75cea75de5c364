package dev.steward.service.tools.household;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a database's error says, as the model and the audit log may read it (SPEC §13: the values
 * in {@code secrets.json} reach neither). The states a household meets are told in words of the
 * pack's own, any other state by its code alone: a server's text is whoever wrote the rule's (a
 * trigger's {@code RAISE ... USING ERRCODE}, in any language), so it is logged here, never passed
 * on. An error with no state (Steward's or Flyway's own) passes its first line on, with the user
 * name, the password and the names a server quotes (a role, a host) taken out.
 */
final class DriverText {

  /** PostgreSQL's SQLSTATE classes and codes (H2 uses the same for these), in Steward's words. */
  private static final Map<String, String> STATES = Map.ofEntries(
      Map.entry("28000", "its user name is not allowed to sign in from here"),
      Map.entry("28P01", "its user name or password was refused"),
      Map.entry("3D000", "the database does not exist"),
      Map.entry("42501", "its user may not do this"),
      Map.entry("42P01", "its tables are missing"),
      Map.entry("23505", "a row with the same key exists"),
      Map.entry("23503", "it refers to a row that is not there, or one that others refer to"),
      Map.entry("23502", "a value the database needs is missing"),
      Map.entry("23514", "a value is outside what the database takes"),
      Map.entry("22001", "a value is longer than the database takes"),
      Map.entry("P0001", "a rule in the database refused it"),
      Map.entry("57P01", "the server is shutting down"),
      Map.entry("57P03", "the server is not accepting connections yet"),
      Map.entry("53300", "the server has too many connections"),
      Map.entry("55P03", "another change held the rows too long (lock timeout)"),
      Map.entry("HYT00", "another change held the rows too long (lock timeout)"));

  private static final Map<String, String> CLASSES = Map.of(
      "08", "the connection failed",
      "28", "its user name or password was refused",
      "53", "the server is short of resources",
      "40", "it lost a race with another change",
      "23", "a rule of the household data");

  /** What a server quotes of who signs in and from where: {@code user "x"}, {@code host "y"}. */
  private static final Pattern QUOTED =
      Pattern.compile("\\b(user|role|host|username|password)( name)? \"[^\"]*\"");

  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(DriverText.class.getName());

  private DriverText() {}

  /**
   * An error in words the model may read: fixed wording for a known state, the state's code for
   * another, and the first line of an error with none, without {@code secrets}.
   */
  static String of(Throwable e, List<@Nullable String> secrets) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        String known = STATES.get(state);
        if (known == null && state.length() >= 2) known = CLASSES.get(state.substring(0, 2));
        if (known != null) return known;
        LOG.info(() -> "household database: SQLSTATE " + state + ": "
            + scrubbed(firstLine(sql.getMessage()), secrets));
        return "the database refused it (SQLSTATE " + scrubbed(state, secrets) + ")";
      }
      if (t.getCause() == t) break;
    }
    return scrubbed(firstLine(e.getMessage()), secrets);
  }

  static String scrubbed(String text, List<@Nullable String> secrets) {
    String out = QUOTED.matcher(text).replaceAll("$1$2 \"…\"");
    for (String secret : secrets) {
      if (secret != null && !secret.isBlank()) out = out.replace(secret, "…");
    }
    return out;
  }

  static String firstLine(@Nullable String message) {
    if (message == null) return "no reason given";
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
