package dev.steward.protocol.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * Canonical JSON: object keys sorted by code point, no whitespace, numbers in one spelling
 * ({@code 1}, {@code 1.0} and {@code 1e0} are the same number). Two argument objects that mean
 * the same thing hash the same, so a confirm token binds meaning, not formatting.
 */
public final class CanonicalJson {

  private CanonicalJson() {}

  public static String write(JsonNode node) {
    StringWriter out = new StringWriter();
    try (JsonGenerator gen = Json.mapper().getFactory().createGenerator(out)) {
      writeNode(gen, node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Lower-case hex SHA-256 of the canonical UTF-8 form. */
  public static String sha256(JsonNode node) {
    return sha256Hex(write(node).getBytes(StandardCharsets.UTF_8));
  }

  public static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(sha256(bytes));
  }

  /** Lower-case hex SHA-256 of {@code bytes[offset, offset + length)}. */
  public static String sha256Hex(byte[] bytes, int offset, int length) {
    MessageDigest digest = fresh();
    digest.update(bytes, offset, length);
    return HexFormat.of().formatHex(digest.digest());
  }

  public static byte[] sha256(byte[] bytes) {
    return fresh().digest(bytes);
  }

  /**
   * A new SHA-256 digest. Copying a prototype skips the provider lookup of
   * {@code MessageDigest.getInstance}, which cost more than hashing a row (every call hashes
   * its arguments and two audit rows).
   */
  private static MessageDigest fresh() {
    try {
      return (MessageDigest) SHA256.clone();
    } catch (CloneNotSupportedException e) {
      return newSha256();
    }
  }

  private static final MessageDigest SHA256 = newSha256();

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

  private static void writeNode(JsonGenerator gen, JsonNode node) throws IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        names.sort(null);
        gen.writeStartObject();
        for (String name : names) {
          gen.writeFieldName(name);
          writeNode(gen, node.get(name));
        }
        gen.writeEndObject();
      }
      case ARRAY -> {
        gen.writeStartArray();
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
          writeNode(gen, it.next());
        }
        gen.writeEndArray();
      }
      case STRING -> gen.writeString(node.textValue());
      case NUMBER -> gen.writeRawValue(number(node));
      case BOOLEAN -> gen.writeBoolean(node.booleanValue());
      case NULL, MISSING -> gen.writeNull();
      default -> gen.writeString(node.asText());
    }
  }

  private static String number(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.bigIntegerValue().toString();
    }
    BigDecimal value = node.decimalValue().stripTrailingZeros();
    if (value.signum() == 0) {
      return "0";
    }
    if (value.scale() <= 0 && value.precision() - value.scale() <= 21) {
      return value.toBigIntegerExact().toString();
    }
    return value.toString().replace("E+", "e").replace('E', 'e');
  }
}
