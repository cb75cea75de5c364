package dev.steward.protocol.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the service proves, before a client sends it a secret, that it holds this installation's
 * secrets: for the client's fresh nonce it answers HMAC-SHA256 under each role's secret, over the
 * nonce and the port the client dialled. A process that took over the port (after the service
 * died) cannot answer, and an answer relayed from the real service names another port.
 */
public final class ServiceProof {

  /** Where the service answers, without a secret: {@code GET /rpc/hello?nonce=…}. */
  public static final String PATH = "/rpc/hello";

  private ServiceProof() {}

  public static String of(String secret, String nonce, int port) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
      return HexFormat.of()
          .formatHex(mac.doFinal(("steward service proof\n" + nonce + "\n" + port)
              .getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Whether {@code given} is the proof for {@code secret}, compared in constant time. */
  public static boolean matches(String given, String secret, String nonce, int port) {
    return MessageDigest.isEqual(
        given.getBytes(StandardCharsets.US_ASCII),
        of(secret, nonce, port).getBytes(StandardCharsets.US_ASCII));
  }

  /** A nonce a client may send: 32 hex characters. */
  public static boolean validNonce(String nonce) {
    return nonce.length() == 32
        && nonce.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
  }
}
