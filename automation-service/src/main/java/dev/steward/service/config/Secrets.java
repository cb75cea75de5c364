package dev.steward.service.config;

import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.method.Role;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The per-install secrets: one per role ({@code config/ui.secret}, {@code config/agent.secret},
 * {@code config/mcp.secret}) and the key that signs confirm tokens ({@code config/token.key}) and
 * the one that seals the audit chain ({@code config/audit.key}). Created on first start, mode 0600.
 */
public final class Secrets {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<Role, byte[]> roles;
  private final byte[] tokenKey;
  private final byte[] auditKey;

  private Secrets(Map<Role, byte[]> roles, byte[] tokenKey, byte[] auditKey) {
    this.roles = roles;
    this.tokenKey = tokenKey;
    this.auditKey = auditKey;
  }

  public static Secrets loadOrCreate(StewardHome home) throws IOException {
    Map<Role, byte[]> roles = new EnumMap<>(Role.class);
    for (Role role : Role.values()) roles.put(role, readOrCreate(home.places().secretFile(role)));
    return new Secrets(
        roles,
        readOrCreate(home.config().resolve("token.key")),
        readOrCreate(home.config().resolve("audit.key")));
  }

  /** Where the audit chain's newest head is kept, outside the data folder its rows are in. */
  public static Path auditHeadFile(StewardHome home) {
    return home.config().resolve("audit-chain.json");
  }

  public static Path secretFile(StewardHome home, Role role) {
    return home.config().resolve(role.wire() + ".secret");
  }

  private static byte[] readOrCreate(Path file) throws IOException {
    if (!Files.exists(file)) {
      byte[] raw = new byte[32];
      RANDOM.nextBytes(raw);
      String text = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
      try {
        AtomicFiles.write(file, text.getBytes(StandardCharsets.US_ASCII), true);
      } catch (IOException e) {
        if (!Files.exists(file)) throw e; // another process created it first
      }
    }
    Owner.restrict(file, false);
    String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
    if (text.length() < 32) {
      throw new IOException(file + " is shorter than 32 characters: delete it to make a new one");
    }
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * The role a presented secret belongs to, compared in constant time with every role's secret
   * (no early exit, so the time taken does not say which came close).
   */
  public Optional<Role> roleOf(String presented) {
    byte[] bytes = presented.getBytes(StandardCharsets.US_ASCII);
    Role found = null;
    for (Map.Entry<Role, byte[]> e : roles.entrySet())
      if (MessageDigest.isEqual(bytes, e.getValue())) found = e.getKey();
    return Optional.ofNullable(found);
  }

  public String secret(Role role) {
    return new String(roles.get(role), StandardCharsets.US_ASCII);
  }

  public byte[] tokenKey() {
    return tokenKey.clone();
  }

  public byte[] auditKey() {
    return auditKey.clone();
  }
}
