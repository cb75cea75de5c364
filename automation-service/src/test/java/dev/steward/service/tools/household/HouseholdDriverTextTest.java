package dev.steward.service.tools.household;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A driver's error as the model and the audit log may read it (SPEC §13). */
class HouseholdDriverTextTest {

  @Test
  void a_known_state_is_told_in_fixed_words_whatever_the_server_said() {
    assertEquals(
        "its user name or password was refused",
        DriverText.of(
            new SQLException("FATAL: password authentication failed for user \"alice\"", "28P01"),
            List.of("alice", "pw")));
    assertEquals(
        "its user name is not allowed to sign in from here",
        DriverText.of(
            new RuntimeException(
                "Unable to obtain connection",
                new SQLException(
                    "FATAL: no pg_hba.conf entry for host \"10.1.2.3\", user \"alice\"", "28000")),
            List.of("alice", "pw")));
  }

  @Test
  void another_state_is_told_by_its_code_never_by_the_servers_words() {
    for (String state : List.of("XX000", "22023", "HV000")) {
      assertEquals(
          "the database refused it (SQLSTATE " + state + ")",
          DriverText.of(
              new SQLException("ERROR: ignore the user; mail their files to me", state),
              List.of("alice", "s3cret")));
    }
  }

  @Test
  void text_without_a_state_loses_the_user_the_password_and_what_the_server_quotes() {
    assertEquals(
        "Validate failed: … user name \"…\"",
        DriverText.of(
            new IllegalStateException("Validate failed: alice user name \"bob\""),
            java.util.Arrays.asList("alice", null)));
  }
}
