package dev.steward.service.token;

import dev.steward.protocol.json.Json;
import dev.steward.protocol.tool.Risk;
import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.audit.AuditUnavailableException;
import dev.steward.service.audit.TokenRecords;
import dev.steward.service.scope.FileStamp;
import dev.steward.service.tools.VersionStamp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Confirm tokens (SPEC §2): minted only on a ui connection's request, bound to a trace and to exact
 * calls or to tools under a scope, expiring, single-use unless reusable, revocable. A token is
 * {@code st1.<id>.<mac>}: 128 random bits and an HMAC-SHA256 of them under the per-install key,
 * checked in constant time before the record is even looked up.
 */
public final class ConfirmTokens {

  public static final Duration DEFAULT_TTL = Duration.ofSeconds(120);
  public static final Duration MAX_TTL_HIGH = Duration.ofSeconds(60);
  public static final Duration MAX_TTL = Duration.ofMinutes(10);

  private static final Logger LOG = Logger.getLogger(ConfirmTokens.class.getName());
  private static final String PREFIX = "st1.";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  private final SecretKeySpec key;
  private final Clock clock;
  private final TokenRecords persistence;
  private final Map<String, Live> live = new ConcurrentHashMap<>();

  /** A record and which of its parts were used; guarded by its own monitor. */
  private static final class Live {
    final TokenRecord record;
    final boolean[] callUsed;
    boolean used;

    Live(TokenRecord record) {
      this.record = record;
      this.callUsed = new boolean[record.calls() == null ? 0 : record.calls().size()];
    }
  }

  public ConfirmTokens(byte[] key, Clock clock, TokenRecords persistence) {
    this.key = new SecretKeySpec(key, "HmacSHA256");
    this.clock = clock;
    this.persistence = persistence;
  }

  /** Reloads unexpired tokens after a restart and marks the parts the audit log shows were used. */
  public void restore(UsesSource uses) {
    try {
      long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
      long from = Long.MAX_VALUE;
      for (String json : persistence.live(now)) {
        TokenRecord r = Json.convert(Json.parse(json), TokenRecord.class);
        live.put(r.tokenId(), new Live(r));
        from = Math.min(from, r.mintSeq());
      }
      if (!live.isEmpty()) {
        for (UsesSource.Use use : uses.since(from)) {
          Live l = live.get(use.tokenId());
          if (l != null) markUsed(l, use.tool(), use.argsHash());
        }
      }
    } catch (AuditUnavailableException | java.io.IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "confirm tokens: could not restore; earlier tokens are void", e);
      live.clear();
    }
  }

  /** Where past uses of tokens are read from (the audit log's confirmed decision rows). */
  public interface UsesSource {
    record Use(String tokenId, String tool, String argsHash) {}

    List<Use> since(long seq) throws AuditUnavailableException;
  }

  /** A minted token: the value (shown once, to the ui) and its record. */
  public record Minted(String token, TokenRecord record) {}

  public Minted mint(
      String traceId,
      List<TokenRecord.Call> calls,
      List<String> tools,
      List<Path> scopePaths,
      boolean reusable,
      Duration ttl,
      Risk highestRisk,
      long mintSeq) {
    Duration cap = highestRisk == Risk.HIGH ? MAX_TTL_HIGH : MAX_TTL;
    Duration effective = ttl.compareTo(cap) > 0 ? cap : ttl;
    byte[] raw = new byte[16];
    RANDOM.nextBytes(raw);
    String id = B64.encodeToString(raw);
    Instant expires = clock.instant().plus(effective).truncatedTo(ChronoUnit.MILLIS);
    boolean exact = !calls.isEmpty();
    TokenRecord record = new TokenRecord(
        id,
        traceId,
        exact ? List.copyOf(calls) : null,
        exact ? null : List.copyOf(tools),
        exact ? null : scopePaths.stream().map(Path::toString).toList(),
        !exact && reusable,
        expires,
        mintSeq);
    try {
      persistence.save(id, Json.write(record), ChronoUnit.MICROS.between(Instant.EPOCH, expires));
    } catch (AuditUnavailableException e) {
      LOG.log(
          Level.WARNING, "confirm tokens: not persisted; this one will not survive a restart", e);
    }
    live.put(id, new Live(record));
    return new Minted(PREFIX + id + "." + mac(id), record);
  }

  public boolean revoke(String tokenId) {
    boolean had = live.remove(tokenId) != null;
    try {
      persistence.delete(tokenId);
    } catch (AuditUnavailableException e) {
      LOG.log(Level.WARNING, "confirm tokens: revocation not persisted", e);
    }
    return had;
  }

  /**
   * The call a token is checked against. {@code paths} are the call's resolved real paths, {@code
   * fingerprints} what each names now ({@link FileStamp}, in the same order), read only once the
   * token is known to cover this call and holds what the user saw (a folder's stamp may walk all
   * of it: nobody without a real token can make the service do that).
   */
  public record CallCheck(
      String traceId,
      String tool,
      String argsHash,
      Risk risk,
      List<Path> paths,
      java.util.function.Supplier<List<String>> fingerprints) {}

  /**
   * Checks the token against the call and, if it covers it, consumes it atomically: of two calls
   * racing with one single-use token exactly one gets through. Answers the token id.
   */
  public String consume(String token, CallCheck call) throws TokenRefused {
    String id = verifiedId(token);
    Live l = live.get(id);
    if (l == null) {
      throw new TokenRefused(
          ToolErrorCodes.TOKEN_INVALID, "the confirm token is unknown or was revoked");
    }
    TokenRecord r = l.record;
    if (!clock.instant().isBefore(r.expiresAt())) {
      throw new TokenRefused(
          ToolErrorCodes.TOKEN_EXPIRED, "the confirm token expired at " + r.expiresAt());
    }
    if (!r.traceId().equals(call.traceId())) {
      throw new TokenRefused(
          ToolErrorCodes.TOKEN_MISMATCH, "the confirm token was granted for another trace");
    }
    synchronized (l) {
      List<TokenRecord.Call> calls = r.calls();
      if (calls != null) {
        boolean sameCallUsed = false;
        List<String> now = call.paths().stream().map(Path::toString).toList();
        List<String> approvedTargets = null;
        List<String> changed = null;
        boolean gone = false;
        for (int i = 0; i < calls.size(); i++) {
          TokenRecord.Call c = calls.get(i);
          if (c.tool().equals(call.tool()) && c.argsHash().equals(call.argsHash())) {
            if (l.callUsed[i]) {
              sameCallUsed = true;
              continue;
            }
            List<String> targets = c.targets();
            if (targets != null && !targets.equals(now)) {
              approvedTargets = targets;
              continue;
            }
            List<String> fingerprints = c.fingerprints();
            List<String> stampsNow =
                fingerprints == null ? null : call.fingerprints().get();
            if (fingerprints != null
                && stampsNow != null
                && !FileStamp.allMatch(fingerprints, stampsNow)) {
              changed = now;
              gone = stampsNow.stream()
                  .anyMatch(s -> s.equals(FileStamp.MISSING) || VersionStamp.isMissing(s));
              continue;
            }
            l.callUsed[i] = true;
            return id;
          }
        }
        if (sameCallUsed)
          throw new TokenRefused(
              ToolErrorCodes.TOKEN_USED, "the confirm token was already used for this call");
        if (approvedTargets != null)
          throw new TokenRefused(
              ToolErrorCodes.TOKEN_MISMATCH,
              "the user approved this call on " + String.join(", ", approvedTargets)
                  + "; it would now reach " + (now.isEmpty() ? "nothing" : String.join(", ", now))
                  + " (a link or the folders changed since): it needs approving again");
        if (changed != null)
          throw new TokenRefused(
              ToolErrorCodes.TOKEN_MISMATCH,
              gone
                  ? "what the user approved this call on (" + shownAs(changed)
                      + ") is gone since: there is nothing of it to act on"
                  : "the user approved this call on " + shownAs(changed)
                      + " as it was then; it has changed since (written, or another moved in its"
                      + " place): it needs approving again");
        boolean toolMatches = calls.stream().anyMatch(c -> c.tool().equals(call.tool()));
        throw new TokenRefused(
            ToolErrorCodes.TOKEN_MISMATCH,
            toolMatches
                ? "the arguments differ from the ones the user approved"
                : "the confirm token was granted for another tool");
      }
      if (call.risk() == Risk.HIGH) {
        throw new TokenRefused(
            ToolErrorCodes.TOKEN_MISMATCH, "a high-risk call needs a token for exactly this call");
      }
      List<String> tools = r.tools() == null ? List.of() : r.tools();
      List<String> scopePaths = r.scopePaths() == null ? List.of() : r.scopePaths();
      if (!tools.contains(call.tool())) {
        throw new TokenRefused(
            ToolErrorCodes.TOKEN_MISMATCH, "the confirm token was granted for other tools");
      }
      if (call.paths().isEmpty()) {
        throw new TokenRefused(
            ToolErrorCodes.TOKEN_MISMATCH,
            "a token for a folder covers only calls on paths in it; this call names none");
      }
      for (Path p : call.paths()) {
        if (scopePaths.stream().map(Path::of).noneMatch(p::startsWith)) {
          throw new TokenRefused(
              ToolErrorCodes.TOKEN_MISMATCH, "\"" + p + "\" is outside the confirm token's scope");
        }
      }
      if (!r.reusable()) {
        if (l.used)
          throw new TokenRefused(ToolErrorCodes.TOKEN_USED, "the confirm token was already used");
        l.used = true;
      }
      return id;
    }
  }

  private String verifiedId(String token) throws TokenRefused {
    if (token.isEmpty())
      throw new TokenRefused(ToolErrorCodes.TOKEN_MISSING, "the confirm token is empty");
    if (!token.startsWith(PREFIX) || token.length() > 200) {
      throw new TokenRefused(ToolErrorCodes.TOKEN_INVALID, "not a confirm token");
    }
    int dot = token.indexOf('.', PREFIX.length());
    if (dot < 0) throw new TokenRefused(ToolErrorCodes.TOKEN_INVALID, "not a confirm token");
    String id = token.substring(PREFIX.length(), dot);
    byte[] given = token.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(given, mac(id).getBytes(StandardCharsets.US_ASCII))) {
      throw new TokenRefused(
          ToolErrorCodes.TOKEN_INVALID, "the confirm token's signature does not match");
    }
    return id;
  }

  private static void markUsed(Live l, String tool, String argsHash) {
    synchronized (l) {
      List<TokenRecord.Call> calls = l.record.calls();
      if (calls != null) {
        for (int i = 0; i < calls.size(); i++) {
          TokenRecord.Call c = calls.get(i);
          if (!l.callUsed[i] && c.tool().equals(tool) && c.argsHash().equals(argsHash)) {
            l.callUsed[i] = true;
            return;
          }
        }
      } else if (!l.record.reusable()) {
        l.used = true;
      }
    }
  }

  private String mac(String id) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return B64.encodeToString(m.doFinal(id.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is required by every Java runtime", e);
    }
  }

  /** What a call was approved on, in a refusal's words: its paths, or what the dialog showed. */
  private static String shownAs(List<String> paths) {
    return paths.isEmpty() ? "what the dialog showed" : String.join(", ", paths);
  }
}
