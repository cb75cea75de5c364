package dev.steward.service.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.policy.PolicyDocument;
import org.junit.jupiter.api.Test;

/** {@code household.db_url} says where the database is, and nothing that signs in to it. */
class HouseholdPolicyTest {

  @Test
  void a_url_with_a_credential_or_a_class_to_load_is_refused_naming_it() {
    for (String bad : new String[] {
      "jdbc:postgresql://db.example.org/household?password=hunter2",
      "jdbc:postgresql://db.example.org/household?sslmode=require&user=alice",
      "jdbc:postgresql://db.example.org/household?socketFactory=org.example.Evil",
      "jdbc:postgresql://alice:hunter2@db.example.org/household",
      "jdbc:h2:file:/tmp/x"
    }) {
      IllegalArgumentException e = assertThrows(
          IllegalArgumentException.class, () -> new PolicyDocument.Household(bad), bad);
      assertTrue(!e.getMessage().contains("hunter2"), e.getMessage());
    }
    assertEquals(
        "jdbc:postgresql://db.example.org:5432/household?sslmode=verify-full&connectTimeout=5",
        new PolicyDocument.Household(
                "jdbc:postgresql://db.example.org:5432/household?sslmode=verify-full&connectTimeout=5")
            .dbUrl());
  }
}
