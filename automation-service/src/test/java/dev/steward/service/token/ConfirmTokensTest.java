package dev.steward.service.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.MutableClock;
import dev.steward.service.audit.TokenRecords;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfirmTokensTest {

  final MutableClock clock = new MutableClock();
  final ConfirmTokens tokens = new ConfirmTokens(new byte[32], clock, new MemoryTokenRecords());
  final ConfirmTokens.CallCheck call =
      callCheck("t1", "files.write_text", "h1", Risk.MEDIUM, List.of());

  private String exact(Duration ttl, Risk risk) {
    return tokens
        .mint(
            "t1",
            List.of(new TokenRecord.Call("files.write_text", "h1")),
            List.of(),
            List.of(),
            false,
            ttl,
            risk,
            0)
        .token();
  }

  private String code(String token, ConfirmTokens.CallCheck c) {
    return assertThrows(TokenRefused.class, () -> tokens.consume(token, c)).code();
  }

  @Test
  void one_hundred_thousand_random_forgeries_are_all_invalid() throws Exception {
    String real = exact(Duration.ofMinutes(5), Risk.MEDIUM);
    String id = real.substring(4, real.lastIndexOf('.'));
    SecureRandom random = new SecureRandom();
    byte[] mac = new byte[32];
    for (int i = 0; i < 100_000; i++) {
      random.nextBytes(mac);
      String forged = "st1."
          + (i % 2 == 0
              ? id
              : Base64.getUrlEncoder()
                  .withoutPadding()
                  .encodeToString(new byte[] {(byte) i, (byte) (i >> 8)}))
          + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
      assertEquals(ToolErrorCodes.TOKEN_INVALID, code(forged, call));
    }
    assertEquals(
        tokens.consume(real, call).length(), 22, "the real token still works after the attempts");
  }

  @Test
  void a_token_runs_at_ttl_minus_one_second_and_not_at_ttl_plus_one() throws Exception {
    String a = exact(Duration.ofSeconds(60), Risk.MEDIUM);
    String b = exact(Duration.ofSeconds(60), Risk.MEDIUM);
    clock.advance(Duration.ofSeconds(59));
    tokens.consume(a, call);
    clock.advance(Duration.ofSeconds(2));
    assertEquals(ToolErrorCodes.TOKEN_EXPIRED, code(b, call));
  }

  @Test
  void high_risk_tokens_live_at_most_sixty_seconds() throws Exception {
    String t = exact(Duration.ofMinutes(10), Risk.HIGH);
    clock.advance(Duration.ofSeconds(61));
    assertEquals(
        ToolErrorCodes.TOKEN_EXPIRED,
        code(t, callCheck("t1", "files.write_text", "h1", Risk.HIGH, List.of())));
  }

  @Test
  void wrong_trace_tool_or_arguments_are_mismatches() {
    String t = exact(Duration.ofMinutes(1), Risk.MEDIUM);
    assertEquals(
        ToolErrorCodes.TOKEN_MISMATCH,
        code(t, callCheck("t2", "files.write_text", "h1", Risk.MEDIUM, List.of())));
    assertEquals(
        ToolErrorCodes.TOKEN_MISMATCH,
        code(t, callCheck("t1", "files.ensure_dir", "h1", Risk.MEDIUM, List.of())));
    assertEquals(
        ToolErrorCodes.TOKEN_MISMATCH,
        code(t, callCheck("t1", "files.write_text", "h2", Risk.MEDIUM, List.of())));
  }

  @Test
  void a_scoped_token_never_covers_a_high_risk_call_and_checks_paths_by_component()
      throws Exception {
    String t = tokens
        .mint(
            "t1",
            List.of(),
            List.of("files.write_text"),
            List.of(Path.of("/home/u/Notes")),
            true,
            Duration.ofMinutes(1),
            Risk.MEDIUM,
            0)
        .token();
    tokens.consume(
        t,
        callCheck(
            "t1", "files.write_text", "x", Risk.MEDIUM, List.of(Path.of("/home/u/Notes/a.txt"))));
    tokens.consume(
        t,
        callCheck(
            "t1", "files.write_text", "y", Risk.MEDIUM, List.of(Path.of("/home/u/Notes/b.txt"))));
    assertEquals(
        ToolErrorCodes.TOKEN_MISMATCH,
        code(
            t,
            callCheck(
                "t1",
                "files.write_text",
                "z",
                Risk.MEDIUM,
                List.of(Path.of("/home/u/Notes-old/a.txt")))));
    assertEquals(
        ToolErrorCodes.TOKEN_MISMATCH,
        code(
            t,
            callCheck(
                "t1",
                "files.write_text",
                "z",
                Risk.HIGH,
                List.of(Path.of("/home/u/Notes/a.txt")))));
  }

  @Test
  void an_exact_token_for_several_calls_covers_each_once() throws Exception {
    String t = tokens
        .mint(
            "t1",
            List.of(
                new TokenRecord.Call("files.write_text", "a"),
                new TokenRecord.Call("files.write_text", "b")),
            List.of(),
            List.of(),
            false,
            Duration.ofMinutes(1),
            Risk.MEDIUM,
            0)
        .token();
    tokens.consume(t, callCheck("t1", "files.write_text", "b", Risk.MEDIUM, List.of()));
    tokens.consume(t, callCheck("t1", "files.write_text", "a", Risk.MEDIUM, List.of()));
    assertEquals(
        ToolErrorCodes.TOKEN_USED,
        code(t, callCheck("t1", "files.write_text", "a", Risk.MEDIUM, List.of())));
    assertTrue(t.startsWith("st1."));
  }

  /** Token records kept in memory: the rules of tokens alone, without a database. */
  static final class MemoryTokenRecords implements TokenRecords {
    private final java.util.Map<String, String> records =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void save(String tokenId, String record, long expiresAtMicros) {
      records.put(tokenId, record);
    }

    @Override
    public void delete(String tokenId) {
      records.remove(tokenId);
    }

    @Override
    public java.util.List<String> live(long nowMicros) {
      return java.util.List.copyOf(records.values());
    }
  }

  @Test
  void an_exact_token_binds_the_paths_the_call_reached_when_it_was_approved() throws Exception {
    List<String> approved = List.of("/home/ann/notes.txt");
    String token = tokens
        .mint(
            "t1",
            List.of(new TokenRecord.Call("files.write_text", "h1", approved)),
            List.of(),
            List.of(),
            false,
            Duration.ofMinutes(5),
            Risk.MEDIUM,
            0)
        .token();
    ConfirmTokens.CallCheck elsewhere = callCheck(
        "t1", "files.write_text", "h1", Risk.MEDIUM, List.of(Path.of("/home/ann/other.txt")));
    TokenRefused refused = assertThrows(TokenRefused.class, () -> tokens.consume(token, elsewhere));
    assertEquals(ToolErrorCodes.TOKEN_MISMATCH, refused.code());
    assertTrue(refused.getMessage().contains("/home/ann/other.txt"), refused.getMessage());
    ConfirmTokens.CallCheck asApproved = callCheck(
        "t1", "files.write_text", "h1", Risk.MEDIUM, List.of(Path.of("/home/ann/notes.txt")));
    assertEquals(22, tokens.consume(token, asApproved).length(), "still unused after the refusal");
    assertEquals(ToolErrorCodes.TOKEN_USED, code(token, asApproved));
  }

  @Test
  void an_exact_token_binds_what_its_paths_named_when_it_was_approved() throws Exception {
    List<Path> paths = List.of(Path.of("/home/ann/notes.txt"));
    String token = exactWithStamps("files.write_text", "/home/ann/notes.txt");
    ConfirmTokens.CallCheck replaced = new ConfirmTokens.CallCheck(
        "t1", "files.write_text", "h1", Risk.MEDIUM, paths, () -> List.of("f-another"));
    TokenRefused refused = assertThrows(TokenRefused.class, () -> tokens.consume(token, replaced));
    assertEquals(ToolErrorCodes.TOKEN_MISMATCH, refused.code());
    assertTrue(refused.getMessage().contains("changed since"), refused.getMessage());
    TokenRefused gone = assertThrows(
        TokenRefused.class,
        () -> tokens.consume(
            token,
            new ConfirmTokens.CallCheck(
                "t1", "files.write_text", "h1", Risk.MEDIUM, paths, () -> List.of("missing"))));
    assertTrue(gone.getMessage().contains("is gone since"), gone.getMessage());
    ConfirmTokens.CallCheck asApproved = new ConfirmTokens.CallCheck(
        "t1", "files.write_text", "h1", Risk.MEDIUM, paths, () -> List.of("f-approved"));
    assertEquals(22, tokens.consume(token, asApproved).length(), "still unused after the refusal");
  }

  @Test
  void the_files_are_stamped_only_for_a_token_that_covers_the_call() throws Exception {
    String token = exactWithStamps("files.delete", "/home/ann/proj");
    java.util.concurrent.atomic.AtomicInteger stamped =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.function.Function<String, ConfirmTokens.CallCheck> call =
        hash -> new ConfirmTokens.CallCheck(
            "t1", "files.delete", hash, Risk.MEDIUM, List.of(Path.of("/home/ann/proj")), () -> {
              stamped.incrementAndGet();
              return List.of("f-approved");
            });
    // A folder's stamp may walk all of it: a made-up token, or a real one for other arguments,
    // must not make the service do that.
    assertThrows(TokenRefused.class, () -> tokens.consume("st1.garbage.mac", call.apply("h1")));
    assertThrows(TokenRefused.class, () -> tokens.consume(token, call.apply("h2")));
    assertEquals(0, stamped.get());
    tokens.consume(token, call.apply("h1"));
    assertEquals(1, stamped.get());
  }

  /** A token for one exact call on {@code path}, approved when its stamp was "f-approved". */
  private String exactWithStamps(String tool, String path) {
    return tokens
        .mint(
            "t1",
            List.of(new TokenRecord.Call(tool, "h1", List.of(path), List.of("f-approved"))),
            List.of(),
            List.of(),
            false,
            Duration.ofMinutes(5),
            Risk.MEDIUM,
            0)
        .token();
  }

  /** A call whose files are as they were when a token for it was minted (none bound). */
  private static ConfirmTokens.CallCheck callCheck(
      String trace, String tool, String hash, Risk risk, List<Path> paths) {
    return new ConfirmTokens.CallCheck(trace, tool, hash, risk, paths, List::of);
  }
}
