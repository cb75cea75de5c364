package dev.steward.service.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.home.AtomicFiles;
import dev.steward.protocol.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The chain's newest known head, kept outside the data folder ({@code config/audit-chain.json}),
 * sealed with the audit key: rows cut off the end of the log — from H2 and the journal alike — are
 * found by comparing with it. It is written at each checkpoint and when the log closes, so rows
 * after the last write can be cut without this file noticing; the keyed hashes still stop anyone
 * without the key from rewriting any row.
 */
final class ChainHeadFile {

  /** What the file holds: from which row the chain is keyed, and a row's number and hash. */
  record Head(long keyedFrom, long seq, String hash, boolean sealed) {}

  private final Path file;
  private final byte[] key;

  ChainHeadFile(Path file, byte[] key) {
    this.file = file;
    this.key = key.clone();
  }

  Optional<Head> read() throws IOException {
    if (!Files.exists(file)) return Optional.empty();
    JsonNode n = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    long keyedFrom = n.path("keyed_from").asLong(-1);
    long seq = n.path("seq").asLong(-1);
    String hash = n.path("hash").asText("");
    if (keyedFrom < 1 || seq < 0) throw new IOException(file + " is not a chain head");
    boolean sealed = MessageDigest.isEqual(
        mac(keyedFrom, seq, hash).getBytes(StandardCharsets.US_ASCII),
        n.path("mac").asText("").getBytes(StandardCharsets.US_ASCII));
    return Optional.of(new Head(keyedFrom, seq, hash, sealed));
  }

  void write(long keyedFrom, long seq, String hash) throws IOException {
    ObjectNode n = Json.object();
    n.put("keyed_from", keyedFrom);
    n.put("seq", seq);
    n.put("hash", hash);
    n.put("mac", mac(keyedFrom, seq, hash));
    AtomicFiles.write(file, n.toString().getBytes(StandardCharsets.UTF_8), true);
  }

  private String mac(long keyedFrom, long seq, String hash) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return HexFormat.of()
          .formatHex(mac.doFinal(("steward audit head\n" + keyedFrom + "\n" + seq + "\n" + hash)
              .getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
