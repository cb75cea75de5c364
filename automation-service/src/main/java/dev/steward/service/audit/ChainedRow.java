package dev.steward.service.audit;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.steward.protocol.audit.AuditKind;
import dev.steward.protocol.audit.Decision;
import dev.steward.protocol.audit.Outcome;
import dev.steward.protocol.json.CanonicalJson;
import dev.steward.protocol.json.Json;
import dev.steward.protocol.json.WireEnum;
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

  /** A row sealed with plain SHA-256 (a log without a key). */
  public static ChainedRow chain(long seq, AuditEntry entry, String prevHash) {
    return chain(seq, entry, prevHash, ChainKey.none());
  }

  public static ChainedRow chain(long seq, AuditEntry entry, String prevHash, ChainKey key) {
    return new ChainedRow(seq, entry, prevHash, hash(seq, entry, prevHash, key));
  }

  public static String hash(long seq, AuditEntry e, String prevHash) {
    return hash(seq, e, prevHash, ChainKey.none());
  }

  /**
   * SHA-256 — or, where {@code key} seals the row, HMAC-SHA256 — over the previous hash and every
   * field in a fixed order, each string JSON-quoted (so no value can imitate a separator). Written
   * directly rather than through a JSON tree, into buffers the thread keeps: this runs for every
   * row and again for every row {@code audit.verify} checks.
   */
  public static String hash(long seq, AuditEntry e, String prevHash, ChainKey key) {
    Scratch scratch = SCRATCH.get();
    StringBuilder b = scratch.text;
    b.setLength(0);
    b.append(prevHash).append('\n').append(seq);
    field(b, e.kind().wire());
    field(b, e.traceId());
    field(b, e.callId());
    field(b, e.tool());
    field(b, e.argsHash());
    field(b, e.argsPreview());
    field(b, WireEnum.wireOrNull(e.decision()));
    field(b, e.reason());
    field(b, e.tokenId());
    field(b, WireEnum.wireOrNull(e.result()));
    field(b, e.errorCode());
    field(b, e.summary());
    b.append(',')
        .append(micros(e.startedAt()))
        .append(',')
        .append(e.endedAt() == null ? "null" : Long.toString(micros(e.endedAt())));
    int n = scratch.utf8(b);
    String hex =
        key.keys(seq) ? scratch.hmacHex(key, n) : CanonicalJson.sha256Hex(scratch.bytes, 0, n);
    if (b.length() > Scratch.KEEP)
      scratch.shrink(); // one huge row must not pin its buffers to the thread
    return hex;
  }

  private static void field(StringBuilder b, @Nullable String v) {
    b.append(',');
    if (v == null) {
      b.append("null");
    } else {
      b.append('"');
      QUOTE.quoteAsString(v, b);
      b.append('"');
    }
  }

  private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  static Scratch scratch() {
    return SCRATCH.get();
  }

  /** A thread's text and byte buffers for hashing and journal lines. */
  static final class Scratch {
    static final int KEEP = 64 << 10;
    StringBuilder text = new StringBuilder(1024);
    byte[] bytes = new byte[2048];

    /** Encodes {@code chars} as UTF-8 into {@link #bytes} (exactly as {@code String.getBytes}); answers the length. */
    int utf8(CharSequence chars) {
      int n = chars.length();
      if (bytes.length < n) bytes = new byte[Math.max(n, bytes.length * 2)];
      for (int i = 0; i < n; i++) {
        char c = chars.charAt(i);
        if (c >= 0x80) {
          byte[] all = chars.toString().getBytes(StandardCharsets.UTF_8);
          if (bytes.length < all.length) bytes = new byte[all.length];
          System.arraycopy(all, 0, bytes, 0, all.length);
          return all.length;
        }
        bytes[i] = (byte) c;
      }
      return n;
    }

    void shrink() {
      text = new StringBuilder(1024);
      bytes = new byte[2048];
    }

    private javax.crypto.@Nullable Mac mac;
    private byte[] macKey = new byte[0];

    /** HMAC-SHA256 of {@code bytes[0, n)} under {@code key}, in hex; the Mac is kept per thread and key. */
    String hmacHex(ChainKey key, int n) {
      try {
        if (mac == null || !key.sameKey(macKey)) {
          macKey = key.key();
          mac = javax.crypto.Mac.getInstance("HmacSHA256");
          mac.init(new javax.crypto.spec.SecretKeySpec(macKey, "HmacSHA256"));
        }
        mac.update(bytes, 0, n);
        return java.util.HexFormat.of().formatHex(mac.doFinal());
      } catch (java.security.GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
      }
    }
  }

  /** Writes this row's journal line (its fields, then both hashes) and a newline; the text is reused per thread. */
  StringBuilder journalLine() throws java.io.IOException {
    Scratch scratch = SCRATCH.get();
    StringBuilder line = scratch.text;
    line.setLength(0);
    try (com.fasterxml.jackson.core.JsonGenerator g =
        Json.mapper().getFactory().createGenerator(new Appender(line))) {
      g.writeStartObject();
      g.writeNumberField("seq", seq);
      g.writeStringField("kind", entry.kind().wire());
      put(g, "trace_id", entry.traceId());
      put(g, "call_id", entry.callId());
      put(g, "tool", entry.tool());
      put(g, "args_hash", entry.argsHash());
      put(g, "args_preview", entry.argsPreview());
      put(g, "decision", WireEnum.wireOrNull(entry.decision()));
      put(g, "reason", entry.reason());
      put(g, "token_id", entry.tokenId());
      put(g, "result", WireEnum.wireOrNull(entry.result()));
      put(g, "error_code", entry.errorCode());
      put(g, "summary", entry.summary());
      g.writeNumberField("started_at", micros(entry.startedAt()));
      if (entry.endedAt() != null) g.writeNumberField("ended_at", micros(entry.endedAt()));
      g.writeStringField("prev_hash", prevHash);
      g.writeStringField("row_hash", rowHash);
      g.writeEndObject();
    }
    return line.append('\n');
  }

  private static void put(
      com.fasterxml.jackson.core.JsonGenerator g, String name, @Nullable String value)
      throws java.io.IOException {
    if (value != null) g.writeStringField(name, value);
  }

  /** A writer onto a StringBuilder (StringWriter's buffer is synchronized and cannot be reused). */
  private static final class Appender extends java.io.Writer {
    private final StringBuilder to;

    Appender(StringBuilder to) {
      this.to = to;
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      to.append(cbuf, off, len);
    }

    @Override
    public void write(String str, int off, int len) {
      to.append(str, off, off + len);
    }

    @Override
    public void write(int c) {
      to.append((char) c);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  public boolean hashMatches() {
    return hashMatches(ChainKey.none());
  }

  public boolean hashMatches(ChainKey key) {
    return rowHash.equals(hash(seq, entry, prevHash, key));
  }

  static ChainedRow fromJson(JsonNode n) {
    AuditEntry e = new AuditEntry(
        AuditKind.of(n.get("kind").asText()),
        text(n, "trace_id"),
        text(n, "call_id"),
        text(n, "tool"),
        text(n, "args_hash"),
        text(n, "args_preview"),
        n.hasNonNull("decision") ? Decision.of(n.get("decision").asText()) : null,
        text(n, "reason"),
        text(n, "token_id"),
        n.hasNonNull("result") ? Outcome.of(n.get("result").asText()) : null,
        text(n, "error_code"),
        text(n, "summary"),
        instant(n.get("started_at").asLong()),
        n.has("ended_at") ? instant(n.get("ended_at").asLong()) : null);
    return new ChainedRow(
        n.get("seq").asLong(), e, n.get("prev_hash").asText(), n.get("row_hash").asText());
  }

  public Audit.Row toWire() {
    return new Audit.Row(
        Long.toString(seq),
        entry.kind().wire(),
        entry.traceId(),
        entry.callId(),
        entry.tool(),
        entry.argsHash(),
        entry.argsPreview(),
        WireEnum.wireOrNull(entry.decision()),
        entry.reason(),
        entry.tokenId(),
        WireEnum.wireOrNull(entry.result()),
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

  private static @Nullable String text(JsonNode n, String name) {
    JsonNode v = n.get(name);
    return v == null || v.isNull() ? null : v.asText();
  }
}
