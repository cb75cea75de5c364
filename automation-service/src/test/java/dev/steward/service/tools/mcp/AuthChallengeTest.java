package dev.steward.service.tools.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AuthChallengeTest {

  @Test
  void the_bearer_challenges_parameters_are_read_quoted_or_not() {
    Map<String, String> p = AuthChallenge.bearerParams(
        "Bearer error=\"insufficient_scope\", scope=\"files:read files:write\","
            + " resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\","
            + " error_description=\"say \\\"please\\\"\"");
    assertEquals("insufficient_scope", p.get("error"));
    assertEquals("files:read files:write", p.get("scope"));
    assertEquals(
        "https://mcp.example.com/.well-known/oauth-protected-resource", p.get("resource_metadata"));
    assertEquals("say \"please\"", p.get("error_description"));
  }

  @Test
  void other_schemes_parameters_are_not_taken_for_bearers() {
    Map<String, String> p = AuthChallenge.bearerParams(
        "Basic realm=\"x\", scope=\"evil\", Bearer realm=example, scope=mine");
    assertEquals("mine", p.get("scope"));
    assertEquals("example", p.get("realm"));
    assertTrue(AuthChallenge.bearerParams("Basic realm=\"x\", scope=\"evil\"").isEmpty());
    assertTrue(AuthChallenge.bearerParams(null).isEmpty());
    assertTrue(AuthChallenge.bearerParams("Bearer " + "x".repeat(10_000)).isEmpty());
  }

  @Test
  void a_parameter_given_twice_keeps_its_first_value() {
    assertEquals(
        "a", AuthChallenge.bearerParams("Bearer scope=\"a\", scope=\"b\"").get("scope"));
  }

  @Test
  void only_a_401_or_a_want_of_scope_asks_for_a_sign_in() {
    AuthChallenge unauthorized = new AuthChallenge(401, "Bearer scope=\"a b a\"");
    assertTrue(unauthorized.asksSignIn());
    assertFalse(unauthorized.insufficientScope());
    assertEquals(List.of("a", "b"), List.copyOf(unauthorized.scopes()));
    assertEquals(Optional.empty(), unauthorized.resourceMetadata());
    assertTrue(new AuthChallenge(403, "Bearer error=\"insufficient_scope\"").asksSignIn());
    assertFalse(new AuthChallenge(403, "Bearer error=\"invalid_token\"").asksSignIn());
    assertFalse(new AuthChallenge(403, null).asksSignIn());
  }
}
