package dev.steward.service.audit;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.method.Audit;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * A row with its place in the chain: its hash covers the previous row's hash, its own sequence
 * number and every field, so editing, deleting or reordering any row breaks the chain there.
 */
public record ChainedRow(long seq, AuditEntry entry, String prevHash, String rowHash) {

  /** The hash before the first row. */
  public static final String GENESIS = "0".repeat(64);

  public static ChainedRow chain(long seq, AuditEntry entry, String prevHash) {
    return new ChainedRow(seq, entry, prevHash, hash(seq, entry, prevHash));
  }

  /**
   * SHA-256 over the previous hash and every field in a fixed order, each string JSON-quoted (so
   * no value can imitate a separator). Written directly rather than through a JSON tree: this
   * runs for every row and again for every row {@code audit.verify} checks.
   */
  public static String hash(long seq, AuditEntry e, String prevHash) {
    StringBuilder b = new StringBuilder(256).append(prevHash).append('\n').append(seq);
    for (String v : new String[] {e.kind(), e.traceId(), e.callId(), e.tool(), e.argsHash(), e.argsPreview(), e.decision(),
        e.reason(), e.tokenId(), e.result(), e.errorCode(), e.summary()}) {
      b.append(',');
      if (v == null) b.append("null");
      else b.append('"').append(QUOTE.quoteAsString(v)).append('"');
    }
    b.append(',').append(micros(e.startedAt())).append(',').append(e.endedAt() == null ? "null" : Long.toString(micros(e.endedAt())));
    return CanonicalJson.sha256Hex(b.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

  public boolean hashMatches() {
    return rowHash.equals(hash(seq, entry, prevHash));
  }

  static ObjectNode fields(long seq, AuditEntry e) {
    ObjectNode n = Json.object();
    n.put("seq", seq);
    n.put("kind", e.kind());
    put(n, "trace_id", e.traceId());
    put(n, "call_id", e.callId());
    put(n, "tool", e.tool());
    put(n, "args_hash", e.argsHash());
    put(n, "args_preview", e.argsPreview());
    put(n, "decision", e.decision());
    put(n, "reason", e.reason());
    put(n, "token_id", e.tokenId());
    put(n, "result", e.result());
    put(n, "error_code", e.errorCode());
    put(n, "summary", e.summary());
    n.put("started_at", micros(e.startedAt()));
    if (e.endedAt() != null) n.put("ended_at", micros(e.endedAt()));
    return n;
  }

  /** The journal line of this row. */
  ObjectNode toJson() {
    ObjectNode n = fields(seq, entry);
    n.put("prev_hash", prevHash);
    n.put("row_hash", rowHash);
    return n;
  }

  static ChainedRow fromJson(JsonNode n) {
    AuditEntry e =
        new AuditEntry(
            n.get("kind").asText(),
            text(n, "trace_id"),
            text(n, "call_id"),
            text(n, "tool"),
            text(n, "args_hash"),
            text(n, "args_preview"),
            text(n, "decision"),
            text(n, "reason"),
            text(n, "token_id"),
            text(n, "result"),
            text(n, "error_code"),
            text(n, "summary"),
            instant(n.get("started_at").asLong()),
            n.has("ended_at") ? instant(n.get("ended_at").asLong()) : null);
    return new ChainedRow(n.get("seq").asLong(), e, n.get("prev_hash").asText(), n.get("row_hash").asText());
  }

  public Audit.Row toWire() {
    return new Audit.Row(
        Long.toString(seq),
        entry.kind(),
        entry.traceId(),
        entry.callId(),
        entry.tool(),
        entry.argsHash(),
        entry.argsPreview(),
        entry.decision(),
        entry.reason(),
        entry.tokenId(),
        entry.result(),
        entry.errorCode(),
        entry.summary(),
        entry.startedAt(),
        entry.endedAt(),
        rowHash);
  }

  static long micros(Instant t) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, t);
  }

  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  private static void put(ObjectNode n, String name, @Nullable String value) {
    if (value != null) n.put(name, value);
  }

  private static @Nullable String text(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v == null || v.isNull() ? null : v.asText();
  }
}
